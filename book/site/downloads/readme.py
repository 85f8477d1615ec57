"""The texts a download package carries about itself: requirements.txt pinned from
requirements.lock, run.sh (both sides, then the comparison) and the README."""
import json
import re
import shlex
import sys
from pathlib import Path

from ... import hardware
from ...experiments.files import crates_of, imports, script_files
from ...experiments.manifest import Experiment
from ...paths import Book
from ...running.sides import CLOSED_PROXY, PROXY_VARS
from . import fail as _fail
from .manifest import binary_name

# Import names that differ from the distribution's name (the rest are the same).
IMPORT_DISTS = {"yaml": "PyYAML", "PIL": "Pillow", "sklearn": "scikit-learn", "google": "protobuf"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


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
    if e["kind"] == "build_script_error":
        return (f"编译停在依赖 `{e['value']}` 的构建脚本上（它要下载东西；"
                "书里这一侧是断网构建的：`cargo build --offline`，代理指向关闭的端口）")
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
    if exp.volatile:
        # The book keeps these apart before it compares (timings): the download does the same.
        args += ["--drop", ",".join(exp.volatile)]
    return args


def _binary(book: Book, exp: Experiment) -> str:
    return f"{'release' if exp.burn['profile'] == 'release' else 'debug'}/{binary_name(book, exp.burn['crate'])}"


# burn.offline, as the book's runner builds it (sides.offline_env): crates fetched first, then
# no network for the build itself and an empty data dir for build scripts.
OFFLINE_ENV = "".join(f"{k}={CLOSED_PROXY} " for k in PROXY_VARS) + 'XDG_DATA_HOME="$(mktemp -d)" '


def _cargo(exp_crate: str, release: bool, offline: bool = False) -> str:
    cmd = ("cargo build --locked " + ("--offline " if offline else "") + ("--release " if release else "")
           + f"--manifest-path crates/{exp_crate}/Cargo.toml")
    if offline:
        return f"cargo fetch --locked --manifest-path crates/{exp_crate}/Cargo.toml && {OFFLINE_ENV}{cmd}"
    return cmd


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
                  f"if {_cargo(exp.burn['crate'], release, exp.burn.get('offline', False))}; then",
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
    for f in exp.row_files:
        out.append(f"| `{_rel(book, f)}` | 对照表的一个主题：每行的 PyTorch 写法、容差和结论 |")
    scripts = script_files(book, exp)
    for f in scripts:
        out.append(f"| `{_rel(book, f)}` | PyTorch 一侧" + ("" if f == scripts[0] else "（脚本要用到的文件）") + " |")
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
        if exp.burn.get("offline"):
            out.append("# 和书里一样断网构建：先下载 crate，构建时代理指向关闭的端口，构建脚本的数据目录是空的")
        out += ["# burn 一侧", _cargo(exp.burn["crate"], exp.burn["profile"] == "release",
                                    exp.burn.get("offline", False)),
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
