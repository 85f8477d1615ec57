"""Each experiment as one download that builds and runs outside this repository.

An archive holds both programs as they are committed, made standalone: the crate's Cargo.toml
with the workspace inheritance replaced by the root's values (and an empty [workspace]), a
Cargo.lock cut from the workspace's for this crate alone, the script with a requirements.txt
pinned from requirements.lock, the comparator, run.sh and a README. Nothing is run, except
cargo's offline resolver to cut the lock (memoised in target/, keyed on the inputs).
Archives are deterministic: sorted entries, mtime 0, uid/gid 0, gzip mtime 0.
"""
import ast
import gzip
import hashlib
import io
import json
import os
import posixpath
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

from . import cache, hardware
from .discover import Experiment, discover
from .errors import BookError
from .paths import Book, write_atomic
from .render import TAB_LABELS, fence, tabs

DIR = "downloads"  # site/downloads/<id>.tar.gz
SKIP_DIRS = {"target", "__pycache__", ".git"}
DEP_TABLES = ("dependencies", "build-dependencies", "dev-dependencies")
KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")
# `edition.workspace = true` or `burn = { workspace = true, ... }` on one line.
DOTTED_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\.workspace\s*=\s*true\s*(#.*)?$")
INLINE_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*\{.*\bworkspace\s*=\s*true\b.*\}\s*(#.*)?$")
HEADER_RE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
# What a script reads next to itself ("infer.py", with_name("x.bin")) and crates' data it opens.
SIBLING_RE = re.compile(r"""["']([\w.-]+\.\w+)["']""")
CRATE_REF_RE = re.compile(r"""["']crates["']\s*/\s*["']([a-z0-9][a-z0-9-]*)["']""")
SHOWN_SUFFIXES = {".rs": "rust", ".toml": "toml", ".py": "python", ".txt": "text"}

_CACHE: dict = {}


def reset():
    """Forget what one build worked out (mkdocs serve rebuilds in the same process)."""
    _CACHE.clear()
    PAGES.clear()
    PAGE_FILES.clear()


def experiments(book: Book) -> dict[str, Experiment]:
    key = ("exps", book.root)
    if key not in _CACHE:
        _CACHE[key] = {e.id: e for e in discover(book)}
    return _CACHE[key]


def _fail(exp_id: str, msg: str):
    raise BookError(f"实验 {exp_id} 的下载包：{msg}")


# --- Cargo.toml --------------------------------------------------------------------------

def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"TOML 写不出 {v!r}")


def toml_key(k: str) -> str:
    return k if KEY_RE.match(k) else json.dumps(k, ensure_ascii=False)


def _merge_dep(exp_id, rel, name, member: dict, root_deps: dict) -> dict:
    """A `workspace = true` dependency with the root's spec filled in (cargo's rules)."""
    if name not in root_deps:
        _fail(exp_id, f"{rel} 的依赖 {name} 写了 workspace = true，根目录 Cargo.toml 的 "
                      "[workspace.dependencies] 里没有它")
    base = root_deps[name]
    base = {"version": base} if isinstance(base, str) else dict(base)
    unknown = set(member) - {"workspace", "features", "optional", "default-features"}
    if unknown:
        _fail(exp_id, f"{rel} 的依赖 {name} 在 workspace = true 之外还写了 {sorted(unknown)}，转换器不认识")
    if "path" in base:
        _fail(exp_id, f"{rel} 的依赖 {name} 是 path 依赖，下载包里装不下它")
    feats = list(base.get("features", [])) + [f for f in member.get("features", [])
                                              if f not in base.get("features", [])]
    if feats:
        base["features"] = feats
    if member.get("optional"):
        base["optional"] = True
    return base["version"] if list(base) == ["version"] else base


def _dep_table(table: str) -> bool:
    parts = table.split(".")
    return parts[-1] in DEP_TABLES and (len(parts) == 1 or parts[0] == "target")


def _resolve(exp_id, rel, data: dict, root: dict) -> dict:
    """What the member's manifest means, inheritance filled in: the converter's reference."""
    ws = root.get("workspace", {})
    out = {}
    for table, body in data.items():
        if table == "package":
            pkg = {}
            for k, v in body.items():
                if isinstance(v, dict) and v.get("workspace") is True:
                    if k not in ws.get("package", {}):
                        _fail(exp_id, f"{rel} 的 package.{k} 写了 workspace = true，根目录 "
                                      "Cargo.toml 的 [workspace.package] 里没有它")
                    v = ws["package"][k]
                pkg[k] = v
            out[table] = pkg
        elif table in DEP_TABLES:
            out[table] = {n: _merge_dep(exp_id, rel, n, d, ws.get("dependencies", {}))
                          if isinstance(d, dict) and d.get("workspace") else d
                          for n, d in body.items()}
        else:
            out[table] = body
    return out


def _workspace_keys(v, where=""):
    """Paths of every `workspace` key left in a parsed manifest."""
    if isinstance(v, dict):
        for k, x in v.items():
            here = f"{where}.{k}" if where else k
            if k == "workspace":
                yield here
            else:
                yield from _workspace_keys(x, here)


def standalone_toml(book: Book, crate: str, exp_id: str) -> str:
    """crates/<crate>/Cargo.toml as its own workspace root: comments kept, inherited values
    written out. Any inheritance it does not know stops the build, naming the experiment."""
    key = ("toml", book.root, crate)
    if key in _CACHE:
        return _CACHE[key]
    path = book.crates / crate / "Cargo.toml"
    rel = f"crates/{crate}/Cargo.toml"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    root = tomllib.loads((book.root / "Cargo.toml").read_text(encoding="utf-8"))
    ws = root.get("workspace", {})
    for extra in ("patch", "replace"):
        if extra in root:
            _fail(exp_id, f"根目录 Cargo.toml 有 [{extra}]，转换器不知道怎么把它带进独立的 crate")
    if "workspace" in data:
        _fail(exp_id, f"{rel} 自己有 [workspace] 表，转换器不认识")
    want = _resolve(exp_id, rel, data, root)
    out, table = [], None
    for line in text.split("\n"):
        h = HEADER_RE.match(line)
        if h and "=" not in line:
            table = h.group(1).replace(" ", "")
            out.append(line)
            continue
        m = DOTTED_RE.match(line) or INLINE_RE.match(line)
        if m and table == "package":
            out.append(f"{m.group(1)} = {toml_value(want['package'][m.group(1)])}")
        elif m and table and _dep_table(table):
            name = m.group(1)
            got = tomllib.loads(line)[name]
            spec = _merge_dep(exp_id, rel, name, got, ws.get("dependencies", {}))
            out.append(f"{name} = {toml_value(spec)}")
        else:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    for prof, body in sorted(root.get("profile", {}).items()):
        out += ["", "# 根目录 Cargo.toml 的 profile 设置，原样带过来", f"[profile.{toml_key(prof)}]"]
        out += [f"{toml_key(k)} = {toml_value(v)}" for k, v in body.items()]
    edition = str(want.get("package", {}).get("edition", "2015"))
    default_resolver = {"2015": "1", "2018": "1", "2021": "2"}.get(edition, "3")
    resolver = str(ws.get("resolver", "1"))
    out += ["", "# 自成一个 workspace：不属于外面的任何 workspace，用自己的 Cargo.lock", "[workspace]"]
    if resolver != default_resolver:
        out.append(f"resolver = {toml_value(resolver)}")
    result = "\n".join(out) + "\n"
    try:
        parsed = tomllib.loads(result)
    except tomllib.TOMLDecodeError as e:
        _fail(exp_id, f"{rel} 转成的独立 Cargo.toml 不是合法的 TOML：{e}")
    left = [k for k in _workspace_keys({t: v for t, v in parsed.items() if t != "workspace"})]
    if left:
        _fail(exp_id, f"{rel} 里的 workspace 继承 {left} 转换器不认识，下载包里的 Cargo.toml 没法独立构建")
    parsed.pop("workspace")
    parsed.pop("profile", None)
    if parsed != {t: v for t, v in want.items() if t != "profile"}:
        _fail(exp_id, f"{rel} 逐行转换的结果和它的含义对不上（多行的依赖表？），转换器不认识这种写法")
    _CACHE[key] = result
    return result


def binary_name(book: Book, crate: str) -> str:
    data = tomllib.loads((book.crates / crate / "Cargo.toml").read_text(encoding="utf-8"))
    bins = data.get("bin") or []
    return bins[0]["name"] if bins and bins[0].get("name") else data["package"]["name"]


# --- Cargo.lock ---------------------------------------------------------------------------

def _lock_packages(text: str) -> dict:
    return {(p["name"], p["version"]): p for p in tomllib.loads(text).get("package", [])}


def _reachable(lock_text: str, name: str) -> list:
    """The workspace lock's entries reachable from a member (over every edge any feature adds),
    as (name, version, checksum) triples: the key of the crate's lock slice."""
    info, _ = cache.lock_graph(lock_text)
    return [[n, v, info[(n, v)].get("checksum", "local")] for n, v in cache.reachable(lock_text, name)]


def lock_slice(book: Book, crate: str, exp_id: str) -> str:
    """The Cargo.lock cargo writes for the standalone crate, seeded with the workspace's
    (so no version moves): only the packages this crate resolves to. cargo's offline
    resolver is the only judge of that (features and targets decide it); memoised."""
    toml_text = standalone_toml(book, crate, exp_id)
    lock_text = book.cargo_lock.read_text(encoding="utf-8")
    # Keyed on the part of the workspace lock this crate can reach: a crate added elsewhere
    # (which rewrites Cargo.lock) does not send every crate back to cargo.
    reach = json.dumps(_reachable(lock_text, package_name(book, crate)), sort_keys=True)
    key = hashlib.sha256((reach + "\0" + toml_text).encode()).hexdigest()[:20]
    memo = book.target / ".book-archive" / crate / f"{key}.lock"
    if memo.is_file():
        return memo.read_text(encoding="utf-8")
    src = book.crates / crate
    with tempfile.TemporaryDirectory(prefix="book-lock-") as d:
        work = Path(d) / crate
        shutil.copytree(src, work, ignore=shutil.ignore_patterns(*SKIP_DIRS))
        (work / "Cargo.toml").write_text(toml_text, encoding="utf-8")
        (work / "Cargo.lock").write_text(lock_text, encoding="utf-8")
        env = dict(os.environ, CARGO_TARGET_DIR=str(Path(d) / "target"), CARGO_TERM_COLOR="never")
        p = subprocess.run(["cargo", "metadata", "--offline", "--format-version", "1"],
                           cwd=work, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            _fail(exp_id, f"cargo 没能给独立的 crates/{crate} 切出 Cargo.lock（先运行 make site 下载依赖）：\n"
                          + p.stderr.strip())
        sliced = (work / "Cargo.lock").read_text(encoding="utf-8")
    ws_pkgs = _lock_packages(lock_text)
    for (name, version), pkg in _lock_packages(sliced).items():
        theirs = ws_pkgs.get((name, version))
        if "source" not in pkg and name != package_name(book, crate):
            _fail(exp_id, f"独立的 crates/{crate} 用到了本地包 {name}，下载包里没有它")
        if "source" in pkg and (theirs is None or theirs.get("checksum") != pkg.get("checksum")
                                or theirs.get("source") != pkg.get("source")):
            _fail(exp_id, f"切出的 Cargo.lock 里有 {name} {version}，和工作区的 Cargo.lock 不一致："
                          "cargo 挪动了锁定的版本（先运行 make site）")
    memo.parent.mkdir(parents=True, exist_ok=True)
    for old in memo.parent.glob("*.lock"):
        old.unlink(missing_ok=True)  # another build may be tidying up too
    write_atomic(memo, sliced)
    return sliced


def package_name(book: Book, crate: str) -> str:
    return tomllib.loads((book.crates / crate / "Cargo.toml").read_text(encoding="utf-8"))["package"]["name"]


# --- what goes in ---------------------------------------------------------------------------

def _tree(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*")
                  if p.is_file() and not SKIP_DIRS & set(p.relative_to(path).parts))


def script_files(book: Book, exp: Experiment) -> list[Path]:
    """The script and what it reads next to itself (infer.py, a sibling module), transitively."""
    if not exp.python:
        return []
    key = ("scripts", book.root, exp.id)
    if key in _CACHE:
        return _CACHE[key]
    todo, seen = [exp.script], []
    while todo:
        f = todo.pop(0)
        if f in seen:
            continue
        seen.append(f)
        if f.suffix != ".py":
            continue
        text = f.read_text(encoding="utf-8")
        names = SIBLING_RE.findall(text) + [m + ".py" for m in imports(f)]
        todo += [f.parent / n for n in names if (f.parent / n).is_file() and f.parent / n not in seen]
    _CACHE[key] = seen
    return seen


def crates_of(book: Book, exp: Experiment) -> list[str]:
    """The experiment's crate, the crates whose binaries its script runs (needs) and those
    whose data files the script opens: each one goes in whole."""
    key = ("crates", book.root, exp.id)
    if key in _CACHE:
        return _CACHE[key]
    out = [exp.burn["crate"]] if exp.burn else []
    out += exp.needs
    for f in script_files(book, exp):
        if f.suffix == ".py":
            out += [c for c in CRATE_REF_RE.findall(f.read_text(encoding="utf-8"))
                    if (book.crates / c / "Cargo.toml").is_file()]
    _CACHE[key] = list(dict.fromkeys(out))
    return _CACHE[key]


# Import names that differ from the distribution's name (the rest are the same).
IMPORT_DISTS = {"yaml": "PyYAML", "PIL": "Pillow", "sklearn": "scikit-learn", "google": "protobuf"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imports(path: Path) -> set[str]:
    """Top-level module names a script imports (parsed: a docstring line "from the ..." is not one)."""
    st = path.stat()
    key = ("imports", path, st.st_size, st.st_mtime_ns)
    if key not in _CACHE:
        _CACHE[key] = _imports(path)
    return set(_CACHE[key])


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def requirements(book: Book, exp: Experiment) -> str:
    """Exact pins (from requirements.lock) of the packages the scripts import."""
    pins = {}
    for line in book.pins.read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.lstrip().startswith("#"):
            name = line.split("==", 1)[0].strip()
            pins[_norm(name)] = line.strip()
    files = script_files(book, exp)
    local = {f.stem for f in files}
    out = set()
    for f in files:
        if f.suffix != ".py":
            continue
        for mod in sorted(imports(f)):
            if mod in sys.stdlib_module_names or mod in local or mod == "__future__":
                continue
            dist = _norm(IMPORT_DISTS.get(mod, mod))
            found = [pins[dist]] if dist in pins else []
            if not found:
                _fail(exp.id, f"{f.relative_to(book.root)} 导入了 {mod}，requirements.lock 里没有它的版本")
            out.update(found)
    return "".join(f"{p}\n" for p in sorted(out, key=str.lower))


def _rel(book: Book, p: Path) -> str:
    return p.relative_to(book.root).as_posix()


def _expect_text(exp: Experiment, side: str) -> str:
    e = (exp.python if side == "python" else exp.burn)["expect"]
    if e["kind"] == "ok":
        return "正常结束（退出码 0），标准输出是一个 JSON 对象"
    if e["kind"] == "exception":
        return f"抛出 `{e['value']}`（退出码非 0）"
    if e["kind"] == "compile_error":
        return f"编译失败，rustc 报 `{e['value']}`"
    if e["kind"] == "panic":
        return f"编译通过，运行时 panic，信息里有「{e['value']}」"
    return f"超时：{exp.timeout:g} 秒内不结束"


def _page_title(book: Book, page: str) -> tuple[str, str]:
    for p in (book.root / "docs" / f"{page}.md", book.root / "docs" / page / "index.md"):
        if p.is_file():
            m = re.search(r"^# +(.+?)\s*$", p.read_text(encoding="utf-8"), re.M)
            return p.relative_to(book.root).as_posix(), m.group(1) if m else page
    return f"docs/{page}", page


def _compare_args(exp: Experiment) -> list[str]:
    c = exp.compare
    args = [repr(c["tol"])]
    if c["fields"]:
        args += ["--fields", ",".join(c["fields"])]
    if c["tols"]:
        args += ["--tols", json.dumps(c["tols"], sort_keys=True)]
    return args


def _binary(book: Book, exp: Experiment) -> str:
    return f"{'release' if exp.burn['profile'] == 'release' else 'debug'}/{binary_name(book, exp.burn['crate'])}"


def _cargo(exp_crate: str, release: bool) -> str:
    return ("cargo build --locked " + ("--release " if release else "")
            + f"--manifest-path crates/{exp_crate}/Cargo.toml")


def run_sh(book: Book, exp: Experiment) -> str:
    pins = hardware.CPU_PINS if exp.pins else {}
    q = shlex.quote
    lines = [
        "#!/bin/sh",
        f"# 实验 {exp.id}：依次运行 PyTorch 一侧、burn 一侧和比较，输出写到 out/。",
        "# PYTHON=...：用哪个 Python（默认 python3）；CARGO_TARGET_DIR=...：cargo 的 target 目录（默认 ./target）。",
        "set -u",
        'cd "$(dirname "$0")"',
        "ROOT=$PWD",
        'PY=${PYTHON:-python3}',
        'case $PY in /*) ;; */*) PY=$ROOT/$PY ;; esac',
        'export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"',
        'export RUST_BACKTRACE="${RUST_BACKTRACE:-0}"  # 和书里一样：panic 不带 backtrace',
        'case $CARGO_TARGET_DIR in /*) ;; *) CARGO_TARGET_DIR=$ROOT/$CARGO_TARGET_DIR ;; esac',
        "mkdir -p out/python out/burn",
        # Files unpacked without tar -m carry the archive's mtime 0, older than any build:
        # cargo would take a stale binary in a shared target dir for fresh.
        "find crates experiments -type f ! -newermt 1971-01-01 -exec touch {} + 2>/dev/null",
        # The runner's per-side limit; `timeout` is coreutils, skipped where missing.
        f'T=""; command -v timeout >/dev/null && T="timeout {exp.timeout:g}"',
    ]
    for need in exp.needs:
        name = binary_name(book, need)
        lines += [f'echo "== 编译 {need}（脚本要运行它的 release 二进制 target/release/{name}）"',
                  _cargo(need, True) + " || exit 1",
                  # The script finds it under ./target/release, as in the book's repository.
                  f'if [ "$CARGO_TARGET_DIR" != "$ROOT/target" ]; then mkdir -p target/release && '
                  f'cp "$CARGO_TARGET_DIR/release/{name}" target/release/; fi']
    if exp.python:
        env = " ".join(f"{k}={q(v)}" for k, v in pins.items())
        lines += ['echo "== PyTorch"',
                  f'(cd out/python && {env + " " if env else ""}$T "$PY" -I "$ROOT/{_rel(book, exp.script)}" > ../python.json)',
                  f'echo "PyTorch 退出码 $?；预期：" {q(_expect_text(exp, "python"))}']
    if exp.burn:
        release = exp.burn["profile"] == "release"
        lines += ['echo "== burn"',
                  f"if {_cargo(exp.burn['crate'], release)}; then",
                  f'  (cd out/burn && $T "$CARGO_TARGET_DIR/{_binary(book, exp)}" > ../burn.json)',
                  '  echo "burn 退出码 $?"',
                  "else",
                  '  echo "burn 编译失败"',
                  "fi",
                  f'echo 预期：{q(_expect_text(exp, "burn"))}']
    if exp.compare:
        args = " ".join(q(a) for a in _compare_args(exp))
        lines += ['echo "== 比较"',
                  f'"$PY" -I experiments/compare.py out/python.json out/burn.json {args}',
                  "code=$?",
                  f'echo "比较的退出码 $code；预期：{"0（OK）" if exp.compare["expect"] == "match" else "1（MISMATCH）"}"',
                  "exit $code"]
    return "\n".join(lines) + "\n"


def readme(book: Book, exp: Experiment) -> str:
    out = [f"# 实验 `{exp.id}`", "", exp.about, ""]
    if exp.page:
        where, title = _page_title(book, exp.page)
        out += [f"出自《Rust in Everything》PyTorch → burn 卷的「{title}」一页（`{where}`）。"
                "书里的输出就是这两个程序真实运行的结果。", ""]
    out += ["## 内容", "", "| 路径 | 是什么 |", "|---|---|",
            f"| `{_rel(book, exp.manifest)}` | 实验清单：期望的结局、比较的字段和容差（书的构建按它检查） |"]
    for f in script_files(book, exp):
        out.append(f"| `{_rel(book, f)}` | PyTorch 一侧" + ("" if f == exp.script else "（脚本要用到的文件）") + " |")
    if exp.python:
        out.append("| `requirements.txt` | 脚本导入的包，版本和书里锁定的相同 |")
    for c in crates_of(book, exp):
        what = ("burn 一侧" if exp.burn and c == exp.burn["crate"] else
                "脚本要运行它的二进制" if c in exp.needs else "脚本要读它的数据文件")
        out.append(f"| `crates/{c}/` | {what}：独立的 crate，`Cargo.toml` 里的 workspace 继承已换成实际的值，"
                   "`Cargo.lock` 只含它用到的包（版本和书里的相同） |")
    if exp.compare:
        out.append("| `experiments/compare.py` | 比较器：逐字段比两侧的 JSON |")
    out += ["| `run.sh` | 依次运行两侧和比较 |", ""]
    out += ["## 需要", ""]
    if exp.python:
        out.append("- Python 3.11 和 `requirements.txt` 里的包（书里用的是 CPU 上的 PyTorch）。")
    if exp.burn or exp.needs:
        out.append("- Rust 和 cargo；第一次构建要从 crates.io 下载并编译 burn（几分钟）。")
    if exp.requires:
        out.append("- 硬件：" + "、".join(hardware.LABELS[r] for r in exp.requires)
                   + "。没有它的机器上 burn 一侧跑不起来；书里的输出来自有它的机器。")
    if exp.python and not exp.pins:
        out.append("- 这个实验讲的就是 CPU：PyTorch 不固定 CPU 内核，数随机器而变。")
    elif exp.cpu:
        out.append("- 这些输出字段的末位随 CPU（厂商、SIMD 级别）而变：" + "、".join(f"`{c}`" for c in exp.cpu) + "。")
    out += ["", "## 运行", "",
            f"解包：`tar xzmf {exp.id}.tar.gz && cd {exp.id}`。`-m` 把文件时间设成解包的时刻："
            "包里的时间都是 0（这样每次构建出的包逐字节相同），而 cargo 按文件时间判断要不要重新编译。",
            "", "一条命令（输出写到 `out/`）：", "", "```bash"]
    if exp.python:
        out += ["python3 -m venv .venv && .venv/bin/pip install -r requirements.txt",
                "PYTHON=.venv/bin/python sh run.sh"]
    else:
        out.append("sh run.sh")
    out += ["```", "", "分步：", "", "```bash", "export CARGO_TARGET_DIR=$PWD/target", "mkdir -p out/python out/burn"]
    for need in exp.needs:
        out += [f"# 脚本运行 target/release/{binary_name(book, need)}：先编译 {need}", _cargo(need, True)]
    if exp.python:
        pins = " ".join(f"{k}={v}" for k, v in hardware.CPU_PINS.items()) if exp.pins else ""
        if pins:
            out.append("# 和书里一样把 PyTorch 的 CPU 内核固定在 AVX2 级别，输出才逐字节相同")
        out += ["# PyTorch 一侧", f"(cd out/python && {pins + ' ' if pins else ''}"
                f"python -I ../../{_rel(book, exp.script)} > ../python.json)"]
    if exp.burn:
        out += ["# burn 一侧", _cargo(exp.burn["crate"], exp.burn["profile"] == "release"),
                f"(cd out/burn && $CARGO_TARGET_DIR/{_binary(book, exp)} > ../burn.json)"]
    if exp.compare:
        out += ["# 比较", "python -I experiments/compare.py out/python.json out/burn.json "
                + " ".join(shlex.quote(a) for a in _compare_args(exp))]
    out += ["```", "", "## 预期结局", ""]
    if exp.python:
        out.append(f"- PyTorch：{_expect_text(exp, 'python')}。")
    if exp.burn:
        prof = "release" if exp.burn["profile"] == "release" else "dev（调试构建）"
        out.append(f"- burn（{prof}，features {', '.join(exp.burn['features'])}）：{_expect_text(exp, 'burn')}。")
    if exp.compare:
        c = exp.compare
        verdict = ("两侧在容差内一致：打印 OK，退出码 0" if c["expect"] == "match"
                   else "两侧不一致：打印 MISMATCH，退出码 1，这正是这一页要讲的")
        out.append(f"- 比较：{verdict}。容差 {c['tol']!r}" +
                   (f"，个别字段 {json.dumps(c['tols'], sort_keys=True)}" if c["tols"] else "")
                   + f"。为什么是这个容差：{c['why']}")
    out += ["", "清单（`" + _rel(book, exp.manifest) + "`）里写的期望就是书的构建检查的契约："
            "结局和期望不同（期望的失败没有出现也算），书就构建失败。", ""]
    return "\n".join(out)


def members(book: Book, exp: Experiment) -> dict[str, bytes]:
    """Archive path (under <id>/) → content, for every file the archive holds."""
    key = ("members", book.root, exp.id)
    if key in _CACHE:
        return _CACHE[key]
    files: dict[str, bytes] = {_rel(book, exp.manifest): exp.manifest.read_bytes()}
    for f in script_files(book, exp):
        files[_rel(book, f)] = f.read_bytes()
    if exp.python:
        files["requirements.txt"] = requirements(book, exp).encode()
    for c in crates_of(book, exp):
        for f in _tree(book.crates / c):
            files[_rel(book, f)] = f.read_bytes()
        files[f"crates/{c}/Cargo.toml"] = standalone_toml(book, c, exp.id).encode()
        files[f"crates/{c}/Cargo.lock"] = lock_slice(book, c, exp.id).encode()
    if exp.compare:
        files["experiments/compare.py"] = book.compare_script.read_bytes()
    files["run.sh"] = run_sh(book, exp).encode()
    files["README.md"] = readme(book, exp).encode()
    _CACHE[key] = files
    return files


def tarball(exp_id: str, files: dict[str, bytes]) -> bytes:
    """A .tar.gz that is the same bytes every time: sorted, mtime 0, owner 0, gzip mtime 0."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = sorted({posixpath.join(exp_id, *Path(p).parent.parts[:i + 1])
                       for p in files for i in range(len(Path(p).parent.parts))} | {exp_id})
        entries = [(d, None) for d in dirs] + [(f"{exp_id}/{p}", files[p]) for p in files]
        for name, data in sorted(entries):
            info = tarfile.TarInfo(name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), 0o755 if name.endswith(".sh") else 0o644
                tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def archive(book: Book, exp_id: str) -> bytes:
    """The experiment's .tar.gz: once per build, and from target/.book-archive/ when its
    members are those of an earlier build (gzip -9 of every archive is most of the cost)."""
    key = ("archive", book.root, exp_id)
    if key in _CACHE:
        return _CACHE[key]
    exps = experiments(book)
    if exp_id not in exps:
        raise BookError(f"没有实验 {exp_id!r}")
    files = members(book, exps[exp_id])
    h = hashlib.sha256(exp_id.encode())
    for name in sorted(files):
        h.update(b"\0" + name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    memo = book.target / ".book-archive" / "tar" / f"{exp_id}-{h.hexdigest()[:32]}.tar.gz"
    if memo.is_file():
        data = memo.read_bytes()
    else:
        data = tarball(exp_id, files)
        memo.parent.mkdir(parents=True, exist_ok=True)
        for old in memo.parent.glob(f"{exp_id}-*.tar.gz"):
            old.unlink()
        write_atomic(memo, data)
    _CACHE[key] = data
    return data


def all_archives(book: Book) -> dict[str, bytes]:
    """downloads/<id>.tar.gz → bytes, for every experiment."""
    return {f"{DIR}/{i}.tar.gz": archive(book, i) for i in sorted(experiments(book))}


# --- the full view on a page -----------------------------------------------------------------

def link(src_uri: str, exp_id: str) -> str:
    """The archive, relative to the page's Markdown file (mkdocs checks and rewrites it)."""
    return posixpath.relpath(f"{DIR}/{exp_id}.tar.gz", posixpath.dirname(src_uri) or ".")


def _kb(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} B"


def full_view(book: Book, exp_id: str, src_uri: str, seen: dict | None = None) -> str:
    """A collapsed block: every file of both sides as the archive has it, in the PyTorch /
    burn tabs, and the download link. seen (file → experiment) holds the files an earlier
    block on the same page showed: those are named, not repeated (a script several
    experiments share would otherwise weigh on the page once per experiment)."""
    seen = {} if seen is None else seen
    exps = experiments(book)
    if exp_id not in exps:
        raise BookError(f"没有实验 {exp_id!r}")
    exp = exps[exp_id]
    files = members(book, exp)
    size = len(archive(book, exp_id))

    def shown(paths, note=None):
        parts = []
        for p in paths:
            lang = SHOWN_SUFFIXES.get(Path(p).suffix)
            if lang is None or Path(p).name == "Cargo.lock":
                continue
            try:
                text = files[p].decode("utf-8")
            except UnicodeDecodeError:
                continue
            label = f"`{p}`" + (note(p) if note else "")
            key = f"{p}\0{hashlib.sha256(files[p]).hexdigest()}"
            if p != "requirements.txt" and seen.get(key, exp_id) != exp_id:
                parts.append(f"`{p}`：和上面「完整程序：{seen[key]}」里的是同一个文件。")
                continue
            seen.setdefault(key, exp_id)
            parts.append(f"{label}\n\n{fence(text, lang)}")
        return "\n\n".join(parts)

    def others(paths):
        rest = [p for p in paths if SHOWN_SUFFIXES.get(Path(p).suffix) is None or Path(p).name == "Cargo.lock"]
        return ("\n\n下载包里还有：" + "、".join(f"`{p}`" for p in rest) + "。") if rest else ""

    items = []
    if exp.python:
        py = [_rel(book, f) for f in script_files(book, exp)] + ["requirements.txt"]
        items.append((TAB_LABELS["python"], shown(py) + others(py)))
    crate_paths = [p for p in files if p.startswith("crates/")]
    if crate_paths:
        order = sorted(crate_paths, key=lambda p: (p.split("/")[1] != (exp.burn or {}).get("crate"),
                                                   p.split("/")[1], not p.endswith("Cargo.toml"), p))
        items.append((TAB_LABELS["burn"], shown(
            order, lambda p: "（独立的 crate：workspace 继承已换成实际的值）" if p.endswith("Cargo.toml") else "")
            + others(order)))
    body = (f"下载：[{exp_id}.tar.gz]({link(src_uri, exp_id)})（{_kb(size)}）：两侧的完整程序、"
            "独立的 `Cargo.toml` 和 `Cargo.lock`、比较器、`run.sh`；解包后照其中的 `README.md` 运行。\n\n"
            + tabs(items))
    # Outside search: a query should land on the prose, not on every page's programs. Raw
    # <details> because Material's indexer drops an excluded element only until the first
    # closing tag of the same name inside it (so not on a <div> wrapper).
    return (f'\n<details class="example full-source" data-search-exclude="" markdown="1">\n'
            f'<summary>完整程序：{exp_id}</summary>\n\n{body}\n</details>\n')


# --- which experiments a page uses ----------------------------------------------------------

# requires_note: a page that says where a hardware experiment's outputs come from uses it too.
OUTPUT_MACROS = {"outputs_tabs", "side_output", "compare_output", "compare_table", "requires_note"}
PAGES: dict[str, dict[str, bool]] = {}  # page src path → {experiment id: full view shown}
PAGE_FILES: dict[str, dict[str, str]] = {}  # page src path → {file: experiment whose block shows it}


def _program_index(book: Book) -> tuple[dict, dict]:
    """Resolved script path → experiments running it; crate dir → experiments packing it."""
    key = ("programs", book.root)
    if key not in _CACHE:
        scripts, crates = {}, {}
        for e in experiments(book).values():
            if e.python:
                for f in script_files(book, e):
                    scripts.setdefault(f.resolve(), []).append(e)
            for c in crates_of(book, e):
                crates.setdefault((book.crates / c).resolve(), []).append(e)
        _CACHE[key] = (scripts, crates)
    return _CACHE[key]


def _users_of(book: Book, path: str, page_src: str) -> list[str]:
    """Experiments whose program a code() call shows; those of this page when several share it."""
    p = (book.root / path).resolve()
    scripts, crates = _program_index(book)
    found = list(scripts.get(p, []))
    for d in [p, *p.parents]:
        found += [e for e in crates.get(d, []) if e not in found]
    order = {i: n for n, i in enumerate(experiments(book))}
    found.sort(key=lambda e: order[e.id])
    page = page_src.removesuffix(".md").removesuffix("/index")
    here = [e for e in found if e.page == page]
    return [e.id for e in (here or found)]


def after_macro(book: Book, page_src: str, name: str, args: tuple, out):
    """Called with every macro's result: the first pair() of an experiment on a page gets the
    full view appended; experiments shown only through outputs or code() are noted for the end."""
    if page_src == "?" or not args or not isinstance(args[0], str):
        return out
    if name != "code" and args[0] not in experiments(book):
        return out  # outputs without a manifest (a scratch book in the tests): nothing to pack
    used = PAGES.setdefault(page_src, {})
    if name == "pair":
        if not used.get(args[0]):
            used[args[0]] = True
            return out + full_view(book, args[0], page_src, PAGE_FILES.setdefault(page_src, {}))
    elif name in OUTPUT_MACROS:
        used.setdefault(args[0], False)
    elif name == "code":
        for i in _users_of(book, args[0], page_src):
            used.setdefault(i, False)
    return out


def page_end(book: Book, page_src: str) -> str:
    """The full views of the experiments a page used but never showed with pair()."""
    used = PAGES.pop(page_src, {})
    seen = PAGE_FILES.pop(page_src, {})
    rest = [i for i, shown in used.items() if not shown]
    if not rest:
        return ""
    return ("\n\n本页用到的其他实验的完整程序：\n\n"
            + "\n".join(full_view(book, i, page_src, seen) for i in rest))


# Spans Material draws in the code's own colour (names, whitespace): dropped inside full
# views, which carry whole programs; the text and every other colour stay as they are.
PLAIN_SPAN_RE = re.compile(r'<span class="(?:n|w)">([^<]*)</span>')
FULL_VIEW_RE = re.compile(r'<details class="example full-source".*?</details>', re.S)


def lighten(html: str) -> str:
    return FULL_VIEW_RE.sub(lambda m: PLAIN_SPAN_RE.sub(r"\1", m.group(0)), html)


def main(argv=None) -> int:
    """`python -m book.archive SITE_DIR`: write SITE_DIR/downloads/ (an engine without
    book/hooks.py's on_files, such as Zensical, runs this after its build)."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.archive SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    try:
        archives = all_archives(Book())
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1
    out = site / DIR
    if out.is_dir():
        shutil.rmtree(out)
    for path, data in archives.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    print(f"下载包：{len(archives)} 个，写到 {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
