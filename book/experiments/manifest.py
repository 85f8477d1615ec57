"""Stage 1: find the experiment manifests and check that each one is well formed."""
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml


from .. import hardware
from ..errors import BookError
from ..paths import Book
from . import rows as table
from .rows import YAML_LOADER as _YAML_LOADER, check_keys as _check_keys, fail as _fail

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
RUSTC_CODE_RE = re.compile(r"^E\d{4}$")
TOP_KEYS = {"id", "page", "about", "timeout", "python", "burn", "compare", "mutation",
            "volatile", "exclusive", "needs", "requires", "cpu", "cpu_tol", "pins", "rows", "topics"}
# A table-driven experiment (the torch → burn map): `rows:` inline or `topics:`, one file of rows
# a topic (rows.py); each row is one output field rows.<id> on both sides, compared within its
# own tolerance.
CPU_HEADS = ("python.", "burn.")
PY_KEYS = {"script", "expect"}
BURN_KEYS = {"crate", "profile", "features", "expect", "offline"}
# A crate name as cargo prints it in "failed to run custom build command for `name vX`".
CRATE_NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
COMPARE_KEYS = {"fields", "tol", "tols", "why", "expect"}
MUTATION_KEYS = {"field", "index", "delta"}
PROFILES = {"release", "dev"}


@dataclass
class Experiment:
    id: str
    manifest: Path
    page: str | None
    about: str
    timeout: float
    python: dict | None
    burn: dict | None
    compare: dict | None
    mutation: dict | None
    volatile: list = field(default_factory=list)
    exclusive: bool = False  # timings: run alone, after the others
    needs: list = field(default_factory=list)  # other crates whose release binaries it runs
    requires: list = field(default_factory=list)  # hardware: runs only where present
    # Output fields that depend on the CPU ("burn.sum"): on another CPU class (vendor and SIMD
    # level) they are compared within tolerance, not by bytes.
    cpu: list = field(default_factory=list)
    # The tolerance for those fields across classes when the experiment has no compare: section.
    cpu_tol: float | None = None
    # PyTorch runs with hardware.CPU_PINS unless the page is about the CPU itself (pins: false).
    pins: bool = True
    rows: list = field(default_factory=list)  # the torch → burn table's entries (rows.ROW_KEYS)
    topics: list = field(default_factory=list)  # the table's topic files, in page order

    @property
    def script(self) -> Path | None:
        return self.manifest.parent / self.python["script"] if self.python else None

    @property
    def row_files(self) -> list[Path]:
        return [table.row_file(self.manifest, t) for t in self.topics]

    def crate_dir(self, book: Book) -> Path | None:
        return book.crates / self.burn["crate"] if self.burn else None


def _expect(path, side, value, kinds):
    """Normalise an expected outcome to {"kind": ..., ...}."""
    if value in (None, "ok"):
        return {"kind": "ok"}
    if value == "timeout":
        return {"kind": "timeout"}
    if isinstance(value, dict) and len(value) == 1:
        (kind, arg), = value.items()
        if kind in kinds:
            if kind == "compile_error" and not RUSTC_CODE_RE.match(str(arg)):
                _fail(path, f"{side}.expect.compile_error 要写 rustc 的错误码（如 E0382），得到 {arg!r}")
            if kind == "build_script_error" and not CRATE_NAME_RE.match(str(arg)):
                _fail(path, f"{side}.expect.build_script_error 要写构建脚本失败的那个 crate 的名字"
                            f"（如 tracel-llvm-bundler），得到 {arg!r}")
            if not isinstance(arg, str) or not arg:
                _fail(path, f"{side}.expect.{kind} 需要一个非空字符串")
            return {"kind": kind, "value": arg}
    _fail(path, f"{side}.expect 只能是 ok、timeout 或 {{{' | '.join(kinds)}: ...}}，得到 {value!r}")


def crate_burn_features(crate_dir: Path) -> list[str]:
    """The burn features a crate asks for in its Cargo.toml ("default" when defaults are on)."""
    manifest = crate_dir / "Cargo.toml"
    data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    dep = data.get("dependencies", {}).get("burn")
    if dep is None:
        return []
    if isinstance(dep, str):
        return ["default"]
    feats = list(dep.get("features", []))
    # workspace = true inherits default-features = false from the root Cargo.toml.
    defaults = dep.get("default-features", not dep.get("workspace", False))
    if defaults and "default" not in feats:
        feats.append("default")
    return sorted(set(feats))


def load(path: Path, book: Book) -> Experiment:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except yaml.YAMLError as e:
        _fail(path, f"不是合法的 YAML：{e}")
    if not isinstance(data, dict):
        _fail(path, "顶层必须是一个映射")
    _check_keys(path, "顶层", data, TOP_KEYS)
    exp_id = data.get("id")
    if not isinstance(exp_id, str) or not ID_RE.match(exp_id):
        _fail(path, f"id 必须是小写字母、数字和连字符，得到 {exp_id!r}")
    if exp_id != path.stem:
        _fail(path, f"id {exp_id!r} 必须和文件名 {path.stem!r} 相同")
    timeout = data.get("timeout", 120)
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        _fail(path, f"timeout 必须是正数（秒），得到 {timeout!r}")

    python = data.get("python")
    if python is not None:
        _check_keys(path, "python", python, PY_KEYS)
        script = path.parent / str(python.get("script", ""))
        if not (script.is_file() or (script / "__main__.py").is_file()):
            _fail(path, f"python.script 指向的文件（或带 __main__.py 的包）不存在：{python.get('script')!r}")
        python = dict(python, expect=_expect(path, "python", python.get("expect"), ["exception"]))

    burn = data.get("burn")
    if burn is not None:
        _check_keys(path, "burn", burn, BURN_KEYS)
        crate = burn.get("crate")
        if not crate or not (book.crates / str(crate) / "Cargo.toml").is_file():
            _fail(path, f"burn.crate 指向的 crate 不存在：crates/{crate}/Cargo.toml")
        profile = burn.get("profile", "release")
        if profile not in PROFILES:
            _fail(path, f"burn.profile 只能是 {sorted(PROFILES)}，得到 {profile!r}")
        declared = sorted(set(burn.get("features") or []))
        actual = crate_burn_features(book.crates / crate)
        if declared != actual:
            _fail(path, f"burn.features 写的是 {declared}，crates/{crate}/Cargo.toml 实际要求 {actual}")
        if not isinstance(burn.get("offline", False), bool):
            _fail(path, f"burn.offline 只能是 true 或 false，得到 {burn['offline']!r}")
        burn = dict(burn, profile=profile, features=declared,
                    expect=_expect(path, "burn", burn.get("expect"),
                                   ["compile_error", "panic", "build_script_error"]))

    if python is None and burn is None:
        _fail(path, "至少要有 python 或 burn 一侧")

    compare = data.get("compare")
    if compare is not None:
        _check_keys(path, "compare", compare, COMPARE_KEYS)
        if python is None or burn is None:
            _fail(path, "compare 需要 python 和 burn 两侧")
        for side in (python, burn):
            if side["expect"]["kind"] != "ok":
                _fail(path, "compare 要求两侧都期望 ok；期望失败的一侧没有输出可比")
        tol = compare.get("tol")
        if not isinstance(tol, (int, float)) or tol < 0:
            _fail(path, f"compare.tol 必须是非负数，得到 {tol!r}")
        if not str(compare.get("why", "")).strip():
            _fail(path, "compare.why 要写明为什么是这个容差")
        exp_cmp = compare.get("expect", "match")
        if exp_cmp not in ("match", "mismatch"):
            _fail(path, f"compare.expect 只能是 match 或 mismatch，得到 {exp_cmp!r}")
        fields = compare.get("fields")
        if fields is not None and (not isinstance(fields, list) or not fields
                                   or not all(isinstance(f, str) for f in fields)):
            _fail(path, f"compare.fields 必须是非空的字段路径列表，得到 {fields!r}")
        tols = compare.get("tols") or {}
        if not isinstance(tols, dict) or not all(
                isinstance(k, str) and isinstance(v, (int, float)) and v >= 0 for k, v in tols.items()):
            _fail(path, f"compare.tols 必须是 字段路径 → 非负容差 的映射，得到 {tols!r}")
        compare = dict(compare, tol=float(tol), expect=exp_cmp, fields=fields,
                       tols={k: float(v) for k, v in tols.items()})

    rows, topics = table.load(path, data, compare, book.root / "docs")
    table.check_sources(path, rows, book)
    if rows:
        # Each row is a field of its own, with its own tolerance; the contract is per row.
        compare = dict(compare, expect="rows", fields=[f"rows.{r['id']}" for r in rows],
                       tols={**compare["tols"], **{f"rows.{r['id']}": r["tol"] for r in rows
                                                   if r["tol"] is not None}})

    mutation = data.get("mutation")
    if mutation is not None:
        _check_keys(path, "mutation", mutation, MUTATION_KEYS)
        if compare is None:
            _fail(path, "mutation 需要 compare")
        if rows:
            _fail(path, "有 rows 的实验不用 mutation：differs 的行已经要求比较器判出不同")
        if not isinstance(mutation.get("field"), str):
            _fail(path, "mutation.field 必须是字段路径")
        index, delta = mutation.get("index", 0), mutation.get("delta", 0.001)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            _fail(path, f"mutation.index 必须是非负整数，得到 {index!r}")
        if not isinstance(delta, (int, float)) or isinstance(delta, bool) or delta == 0:
            _fail(path, f"mutation.delta 必须是非零的数，得到 {delta!r}")
        mutation = {"field": mutation["field"], "index": index, "delta": float(delta)}

    volatile = data.get("volatile") or []
    if not isinstance(volatile, list) or not all(isinstance(v, str) for v in volatile):
        _fail(path, "volatile 必须是字段名的列表")

    needs = data.get("needs") or []
    if not isinstance(needs, list) or not all(isinstance(c, str) for c in needs):
        _fail(path, "needs 必须是 crate 名的列表")
    for c in needs:
        if not (book.crates / c / "Cargo.toml").is_file():
            _fail(path, f"needs 里的 crate 不存在：crates/{c}/Cargo.toml")
    requires = data.get("requires") or []
    if not isinstance(requires, list) or not set(requires) <= set(hardware.KNOWN):
        _fail(path, f"requires 必须是 {list(hardware.KNOWN)} 里的项组成的列表，得到 {requires!r}")
    cpu = data.get("cpu") or []
    if not isinstance(cpu, list) or not all(isinstance(c, str) and c.startswith(CPU_HEADS) for c in cpu):
        _fail(path, f"cpu 必须是以 python. 或 burn. 开头的输出字段路径的列表（如 burn.sum），得到 {cpu!r}")
    cpu_tol = data.get("cpu_tol")
    if cpu_tol is not None:
        if not cpu:
            _fail(path, "cpu_tol 是 cpu: 字段在另一类 CPU 上的容差：先用 cpu: 列出字段")
        if compare is not None:
            _fail(path, "有 compare 的实验，cpu: 字段按 compare.tol 比：不要再写 cpu_tol")
        if not isinstance(cpu_tol, (int, float)) or isinstance(cpu_tol, bool) or cpu_tol < 0:
            _fail(path, f"cpu_tol 必须是非负数，得到 {cpu_tol!r}")
        cpu_tol = float(cpu_tol)
    pins = data.get("pins", True)
    if not isinstance(pins, bool):
        _fail(path, f"pins 必须是 true 或 false，得到 {pins!r}")
    if not pins and not cpu:
        _fail(path, "pins: false 的实验讲的就是 CPU：用 cpu: 列出随 CPU 变化的输出字段")
    exclusive = data.get("exclusive", False)
    if not isinstance(exclusive, bool):
        _fail(path, f"exclusive 必须是 true 或 false，得到 {exclusive!r}")
    if rows and not burn:
        _fail(path, "有 rows 的实验要有 burn 侧：每一行的 burn 代码是它的 crate 里的同名模块")
    if rows:
        table.attach_code(path, rows, topics, book.crates / burn["crate"] / "src")
        if python:
            table.check_script(path, rows, topics, path.parent / python["script"])
    return Experiment(id=exp_id, manifest=path, page=data.get("page"), exclusive=exclusive,
                      needs=needs, requires=requires, cpu=cpu, cpu_tol=cpu_tol, pins=pins, rows=rows, topics=topics,
                      about=str(data.get("about", "")), timeout=float(timeout),
                      python=python, burn=burn, compare=compare, mutation=mutation,
                      volatile=volatile)


def manifests(book: Book) -> list[Path]:
    """Every manifest under experiments/: a topic file of rows sits in a folder named as its
    manifest (ref-7-ops/attention.yaml next to ref-7-ops.yaml) and is not one."""
    return [p for p in sorted(book.experiments.rglob("*.yaml"))
            if not p.parent.with_suffix(".yaml").is_file()]


def discover(book: Book) -> list[Experiment]:
    exps = [load(p, book) for p in manifests(book)]
    seen = {}
    for e in exps:
        if e.id in seen:
            raise BookError(f"实验 id {e.id!r} 重复：{seen[e.id]} 和 {e.manifest}")
        seen[e.id] = e.manifest
    _same_script_same_cpu_fields(book, exps)
    return exps


def _same_script_same_cpu_fields(book: Book, exps: list[Experiment]) -> None:
    """Two experiments that run one PyTorch script print the same fields, and a field whose
    last bits follow the CPU follows it in both: their python.* cpu: lists must agree (a
    field declared in one only would hold bytes in the other and fail on another CPU)."""
    by_script: dict = {}
    for e in exps:
        if e.python:
            by_script.setdefault(e.script.resolve(), []).append(e)
    for script, group in by_script.items():
        lists = {e.id: sorted(c for c in e.cpu if c.startswith("python.")) for e in group}
        group = sorted(group, key=lambda e: e.id)
        a = group[0]
        b = next((e for e in group if lists[e.id] != lists[a.id]), None)
        if b is not None:
            rel = lambda e: e.manifest.relative_to(book.root).as_posix()  # noqa: E731
            raise BookError(f"{rel(b)}：和 {rel(a)} 运行同一个脚本 {script.name}，"
                            f"cpu: 里的 python. 字段却不同（{a.id}: {lists[a.id]}；{b.id}: {lists[b.id]}）。"
                            "同一个脚本的输出随 CPU 变化的字段是同一批，两个清单要列得一样")


# A site build asks for manifests thousands of times (every macro call names an experiment):
# book/site/prepare.py turns this memo on for one build and off after it. Elsewhere it stays off.
_build_memo: dict | None = None


def start_build_memo():
    global _build_memo
    _build_memo = {}


def stop_build_memo():
    global _build_memo
    _build_memo = None


def by_id(book: Book) -> dict[str, Experiment]:
    """Every experiment by id: discovered once per site build, or afresh outside one."""
    if _build_memo is None:
        return {e.id: e for e in discover(book)}
    key = str(book.root)
    if key not in _build_memo:
        _build_memo[key] = {e.id: e for e in discover(book)}
    return _build_memo[key]


def building() -> bool:
    return _build_memo is not None
