"""Stage 2: run one experiment's sides for real and collect what they printed."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import hardware
from ..errors import BookError
from ..experiments.manifest import Experiment
from ..paths import Book
from . import normalize, progress

# cargo locks its target dir anyway; one build at a time keeps its output readable.
CARGO_LOCK = threading.Lock()
BUILD_TIMEOUT = 3600
# Crates whose compiled versions and features go into provenance.
BURN_CRATES = ("burn", "burn-flex", "burn-store", "burn-onnx")
# burn.offline: a build as on a machine without network. cargo gets --offline; a build script
# that downloads (tracel-llvm-bundler, behind burn's cuda and cpu features) meets a proxy on a
# closed port, the same refusal on every machine, with or without network.
CLOSED_PROXY = "http://127.0.0.1:9"
PROXY_VARS = ("ALL_PROXY", "HTTPS_PROXY", "HTTP_PROXY", "all_proxy", "https_proxy", "http_proxy")
BUILD_SCRIPT_RE = re.compile(r"failed to run custom build command for `([A-Za-z0-9_-]+) v")
# cargo says this only when another job was still running at the failure: timing, not output.
WAITING_RE = re.compile(r"^warning: build failed, waiting for other jobs to finish\.\.\.\n?", re.M)


@dataclass
class Proc:
    status: str  # ok | exit | timeout
    code: int | None
    stdout: str
    stderr: str
    seconds: float


# Every child still running, so that an interrupted build can end them all (see faults.py).
LIVE: set = set()
LIVE_LOCK = threading.Lock()
# Set when the build is interrupted: no new child starts, and nothing is stored.
ABORTED = threading.Event()


class Aborted(Exception):
    """The build was interrupted: whatever this run produced is not to be stored."""


def descendants(pid: int) -> list[int]:
    """All processes below pid, from /proc (children first found, deepest last)."""
    parents = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                parents.setdefault(int(stat[stat.rfind(")") + 2:].split()[1]), []).append(int(d.name))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [pid]
    while todo:
        kids = parents.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def kill_tree(pid: int):
    """SIGKILL a child and everything it started (cargo's rustc, torch's workers)."""
    for _ in range(3):  # a process may fork while we walk: walk again
        victims = [pid] + descendants(pid)
        for v in victims:
            try:
                os.kill(v, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _run(cmd, cwd, env, timeout) -> Proc:
    if ABORTED.is_set():
        raise Aborted()
    t0 = time.monotonic()
    # Children stay in the runner's process group: a signal to the group reaches them too.
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    with LIVE_LOCK:
        LIVE.add(p)
    if ABORTED.is_set():  # the interrupt came while it was starting
        kill_tree(p.pid)
    try:
        out, err = p.communicate(timeout=timeout)
        status = "ok" if p.returncode == 0 else "exit"
    except subprocess.TimeoutExpired:
        kill_tree(p.pid)
        out, err = p.communicate()
        status = "timeout"
    finally:
        with LIVE_LOCK:
            LIVE.discard(p)
        if p.poll() is None:  # interrupted: never leave it running
            kill_tree(p.pid)
            p.wait()
    if ABORTED.is_set():
        raise Aborted()  # killed by the interrupt, not by its own doing
    return Proc(status, p.returncode if status != "timeout" else None,
                out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                time.monotonic() - t0)


def kill_all():
    """End every child this build started (on SIGINT/SIGTERM)."""
    with LIVE_LOCK:
        procs = list(LIVE)
    for p in procs:
        kill_tree(p.pid)


def base_env(book: Book) -> dict:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "CARGO_HOME", "RUSTUP_HOME",
                                      "RUSTUP_TOOLCHAIN") if k in os.environ}
    env.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", PYTHONHASHSEED="0", RUST_BACKTRACE="0",
               CARGO_TERM_COLOR="never", CARGO_TARGET_DIR=str(book.target),
               PYTHONDONTWRITEBYTECODE="1")
    return env


def python_exception(stderr: str) -> str | None:
    """The exception type from the last line of a traceback ("ValueError: ...")."""
    marker = "Traceback (most recent call last):"
    if marker not in stderr:
        return None
    # The first unindented line after the last traceback header; a multi-line message
    # or an add_note() continues below it.
    for line in stderr.rsplit(marker, 1)[1].split("\n")[1:]:
        if line and not line.startswith((" ", "\t")):
            name = line.split(":", 1)[0].strip()
            return name.rsplit(".", 1)[-1] if name else None
    return None


def panic_message(stderr: str) -> str | None:
    """The text of a Rust panic, without the location line and the backtrace note."""
    lines = stderr.split("\n")
    for i, line in enumerate(lines):
        if "panicked at " in line:
            msg = []
            for rest in lines[i + 1:]:
                if rest.startswith("note: run with `RUST_BACKTRACE"):
                    break
                msg.append(rest)
            return "\n".join(msg).strip()
    return None


@dataclass
class Side:
    status: str  # ok | exception | compile_error | build_script_error | panic | timeout | error
    stdout: str = ""
    stderr: str = ""
    detail: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)


def build_needs(exp: Experiment, book: Book):
    """Build, one by one, the release binaries of the crates an experiment says it runs."""
    for crate in exp.needs:
        progress.doing(exp.id, f"编译它要运行的 crate {crate}")
        with CARGO_LOCK:
            p = _run(["cargo", "build", "-q", "-p", crate, "--release", "--locked"], book.root,
                     base_env(book), BUILD_TIMEOUT)
        if p.status != "ok":
            raise BookError(f"实验 {exp.id}：needs 里的 crate {crate} 编译失败：\n"
                            + normalize.text(p.stderr, book.root))


def python_env(exp: Experiment, book: Book) -> dict:
    """PyTorch runs with the CPU pins, unless the experiment's point is the CPU."""
    return base_env(book) | hardware.cpu_env(native=not exp.pins)


def run_python(exp: Experiment, book: Book, scratch: Path) -> Side:
    progress.doing(exp.id, "运行 PyTorch 脚本")
    p = _run([book.python, "-I", str(exp.script)], scratch, python_env(exp, book), exp.timeout)
    side = Side("ok", p.stdout, p.stderr, {"exit_code": p.code}, {"run": p.seconds})
    if p.status == "timeout":
        side.status = "timeout"
    elif p.status != "ok":
        exc = python_exception(p.stderr)
        side.status = "exception" if exc else "error"
        side.detail["exception"] = exc
    return side


@dataclass
class Build:
    ok: bool
    codes: list
    diagnostics: str
    features: dict
    versions: dict
    executable: str | None
    seconds: float
    log: str


def offline_env(book: Book, env: dict) -> dict:
    """No network for the build, an empty data dir (a bundle a build script installed on this
    machine before, ~/.local/share/tracel, must not make the build succeed) and a target dir of
    its own: cargo does not rerun a build script that once succeeded in the shared one."""
    target = book.target / "offline"
    data = target / "data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    proxies = {k: CLOSED_PROXY for k in PROXY_VARS}
    return env | proxies | {"XDG_DATA_HOME": str(data), "CARGO_TARGET_DIR": str(target)}


def cargo_build(exp: Experiment, book: Book) -> Build:
    cmd = ["cargo", "build", "-p", exp.burn["crate"], "--locked", "--message-format=json"]
    if exp.burn["profile"] == "release":
        cmd.append("--release")
    env = base_env(book)
    if exp.burn.get("offline"):
        cmd.append("--offline")
        env = offline_env(book, env)
    with CARGO_LOCK:
        first = not progress.compiled_before(book, exp)
        key = progress.describe(progress.feature_key(exp))
        progress.doing(exp.id, f"编译 burn（{key}）" + ("：这套 features 第一次编译" if first else ""))
        p = _run(cmd, book.root, env, BUILD_TIMEOUT)
        if first and p.status == "ok":
            progress.mark_compiled(book, exp)
            progress.say(f"  编译完成 burn（{key}），用时 {p.seconds:.0f} 秒（{exp.id}）")
    crate_toml = (book.crates / exp.burn["crate"] / "Cargo.toml").resolve()
    codes, rendered, features, versions, exe = [], [], {}, {}, None
    for line in p.stdout.splitlines():
        msg = normalize.parse_json(line)
        if not isinstance(msg, dict):
            continue
        reason = msg.get("reason")
        pkg = msg.get("package_id", "")
        ours = msg.get("manifest_path") and Path(msg["manifest_path"]).resolve() == crate_toml
        if reason == "compiler-message" and ours:
            m = msg["message"]
            if m.get("level") in ("error", "warning") and m.get("rendered"):
                rendered.append(m["rendered"])
            if m.get("level") == "error" and m.get("code"):
                codes.append(m["code"]["code"])
        elif reason == "compiler-artifact":
            name = msg.get("target", {}).get("name", "").replace("_", "-")
            if name in BURN_CRATES and "#" in pkg:
                # A build-dependency (burn-onnx's codegen) compiles burn a second time with
                # its own features: keep every set, the runner picks the one for the binary.
                sets = features.setdefault(name, [])
                feats = sorted(msg.get("features", []))
                if feats not in sets:
                    sets.append(feats)
                versions[name] = pkg.rsplit("@", 1)[-1]
            if msg.get("executable") and ours:
                exe = msg["executable"]
    ok = p.status == "ok" and exe is not None
    return Build(ok, sorted(set(codes)), "".join(rendered), features, versions, exe, p.seconds,
                 WAITING_RE.sub("", normalize.drop_cargo_status(p.stderr)))


def lock_workspace(book: Book) -> str | None:
    """Record new workspace crates in Cargo.lock without moving any pinned version.

    Builds then run with --locked. Returns an error text, or None.
    """
    with CARGO_LOCK:
        for offline in (True, False):
            cmd = ["cargo", "update", "--workspace", "--quiet"] + (["--offline"] if offline else [])
            p = _run(cmd, book.root, base_env(book), BUILD_TIMEOUT)
            if p.status == "ok":
                # New crates may bring packages cargo has not downloaded (cargo tree runs offline).
                _run(["cargo", "fetch", "--quiet", "--locked"], book.root, base_env(book), BUILD_TIMEOUT)
                return None
    return normalize.text(p.stderr, book.root)


def run_burn(exp: Experiment, book: Book, scratch: Path) -> tuple[Side, Build]:
    b = cargo_build(exp, book)
    if not b.ok:
        script = BUILD_SCRIPT_RE.search(b.log)
        if b.codes or b.diagnostics:
            side = Side("compile_error", "", b.diagnostics or b.log, {"codes": b.codes},
                        {"build": b.seconds})
        elif script:
            # A dependency's build.rs failed before rustc ever saw the crate (a download, a
            # missing system library): cargo's own report is the output.
            side = Side("build_script_error", "", b.log, {"build_script": script.group(1)},
                        {"build": b.seconds})
        else:
            side = Side("error", "", b.log, {"codes": b.codes}, {"build": b.seconds})
        return side, b
    progress.doing(exp.id, "运行 burn 程序")
    p = _run([b.executable], scratch, base_env(book), exp.timeout)
    side = Side("ok", p.stdout, p.stderr, {"exit_code": p.code, "diagnostics": b.diagnostics},
                {"build": b.seconds, "run": p.seconds})
    if p.status == "timeout":
        side.status = "timeout"
    elif p.status != "ok":
        msg = panic_message(p.stderr)
        side.status = "panic" if msg is not None else "error"
        side.detail["panic"] = msg
    return side, b


def run_compare_cli(book: Book, a, b, tol, fields, tols=None) -> tuple[str, int]:
    """Run experiments/compare.py as a reader would, for its real text and exit code."""
    with tempfile.TemporaryDirectory(prefix="book-cmp-") as d:
        pa, pb = Path(d) / "pt.json", Path(d) / "burn.json"
        pa.write_text(json.dumps(a), encoding="utf-8")
        pb.write_text(json.dumps(b), encoding="utf-8")
        cmd = [book.python, "-I", str(book.compare_script), str(pa), str(pb), repr(tol)]
        if fields:
            cmd += ["--fields", ",".join(fields)]
        if tols:
            cmd += ["--tols", json.dumps(tols, sort_keys=True)]
        p = _run(cmd, d, base_env(book), 60)
    return p.stdout + p.stderr, p.code if p.code is not None else -1
