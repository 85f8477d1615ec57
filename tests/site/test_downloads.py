"""Downloads (book/site/downloads/): each experiment as a .tar.gz that builds and runs on its own,
and its full view on every page that uses it."""
import gzip
import io
import json
import os
import re
import subprocess
import tarfile
import time
import tomllib
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from book.site.downloads import package, view
from book.site.downloads import manifest as dmanifest
from book.experiments import files as efiles
from book.running import normalize
from book.errors import BookError
from book.paths import Book
from scratch import REPO, VENV_PY, run_bounded, write

A1 = "a1-train-step"
A1_FILES = {
    "README.md", "run.sh", "requirements.txt", "experiments/compare.py",
    "experiments/guide/a1-train-step.yaml", "experiments/guide/train_step.py",
    "crates/train-step/Cargo.toml", "crates/train-step/Cargo.lock", "crates/train-step/src/main.rs",
}


@pytest.fixture(scope="module")
def book():
    view.reset()
    return Book(REPO)


def unpack(data: bytes, into: Path) -> Path:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(into, filter="data")
    return into


def names(data: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return [m.name for m in tar.getmembers() if m.isfile()]


def runner_json(stdout: str, root: Path, volatile=()) -> str:
    """What the runner stores as <side>.json for this stdout (book/running/experiment.py _side_files)."""
    data = json.loads(stdout)
    for k in volatile:
        data.pop(k, None)
    return normalize.dump_json(normalize.value(data, root))


def lock_entries(text: str) -> set:
    return {(p["name"], p["version"], p.get("source"), p.get("checksum"))
            for p in tomllib.loads(text)["package"]}


def test_a1_archive_builds_and_runs_outside_the_repo(book, tmp_path):
    data = package.archive(book, A1)
    root = unpack(data, tmp_path) / A1
    now = time.time()
    for f in root.rglob("*"):  # as `tar xzmf` (the README's command) leaves them
        os.utime(f, (now, now))
    crate = root / "crates" / "train-step"
    # Its own workspace root: cargo must not look for the book's (there is none above tmp).
    assert "[workspace]" in (crate / "Cargo.toml").read_text("utf-8")
    env = dict(os.environ, CARGO_TARGET_DIR=str(book.target), CARGO_TERM_COLOR="never")
    t0 = time.monotonic()
    p = subprocess.run(["cargo", "build", "--release", "--offline", "--locked"], cwd=crate, env=env,
                       capture_output=True, text=True)
    seconds = time.monotonic() - t0
    assert p.returncode == 0, p.stderr
    compiled = re.findall(r"^\s*Compiling (\S+)", p.stderr, re.M)
    # How long it took and what it compiled is for the reader of the log (speed is make bench's):
    # with the workspace's burn already in target/, only train-step compiles.
    print(f"\noffline --locked build of the unpacked {A1}: {seconds:.1f} s, compiled {compiled}")

    exe = book.target / "release" / "train-step"
    run_dir = tmp_path / "cwd"
    run_dir.mkdir()
    out = run_bounded([str(exe)], cwd=run_dir, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    cached = (book.outputs / A1 / "burn.json").read_text("utf-8")
    assert runner_json(out.stdout, root) == cached

    # The README's one command: both sides and the comparison, as a reader runs them.
    env_run = dict(env, PYTHON=str(VENV_PY), CARGO_NET_OFFLINE="true")
    r = run_bounded(["sh", "run.sh"], cwd=root, env=env_run, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "MISMATCH" not in r.stdout and "OK" in r.stdout, r.stdout
    assert "PyTorch 退出码 0" in r.stdout and "burn 退出码 0" in r.stdout, r.stdout
    for side in ("python", "burn"):
        got = runner_json((root / "out" / f"{side}.json").read_text("utf-8"), root)
        assert got == (book.outputs / A1 / f"{side}.json").read_text("utf-8"), side
    readme = (root / "README.md").read_text("utf-8")
    assert "run.sh" in readme and "experiments/compare.py out/python.json out/burn.json" in readme


def test_expected_compile_error_shows_outside_the_repo(book, tmp_path):
    """An archive whose point is a compile error: run.sh reports the error and the expectation."""
    exp = next(e for e in package.experiments(book).values()
               if e.burn and e.burn["expect"]["kind"] == "compile_error" and not e.python)
    root = unpack(package.archive(book, exp.id), tmp_path) / exp.id
    env = dict(os.environ, CARGO_TARGET_DIR=str(book.target), CARGO_NET_OFFLINE="true",
               CARGO_TERM_COLOR="never")
    r = run_bounded(["sh", "run.sh"], cwd=root, env=env, capture_output=True, text=True)
    code = exp.burn["expect"]["value"]
    assert f"error[{code}]" in r.stderr, r.stderr
    assert f"burn 编译失败\n预期：编译失败，rustc 报 `{code}`" in r.stdout, r.stdout


def test_archive_bytes_files_and_lock(book):
    first = package.archive(book, A1)
    view.reset()
    again = package.archive(book, A1)
    assert first == again
    assert gzip.decompress(first)  # a plain gzip stream
    assert first[4:8] == b"\0\0\0\0"  # gzip header mtime 0
    with tarfile.open(fileobj=io.BytesIO(first), mode="r:gz") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == sorted(m.name for m in members)
        assert all(m.mtime == 0 and m.uid == 0 and m.gid == 0 and not m.uname for m in members)
        files = {m.name.removeprefix(f"{A1}/") for m in members if m.isfile()}
        assert files == A1_FILES
        read = {n: tar.extractfile(f"{A1}/{n}").read().decode() for n in ("crates/train-step/Cargo.lock",
                                                                            "crates/train-step/Cargo.toml",
                                                                            "requirements.txt")}
    ws_lock = book.cargo_lock.read_text("utf-8")
    sliced = lock_entries(read["crates/train-step/Cargo.lock"])
    assert sliced < lock_entries(ws_lock)  # strict: the other crates' packages are left out
    assert read["requirements.txt"] == "torch==2.15.0\n"
    toml = tomllib.loads(read["crates/train-step/Cargo.toml"])
    assert toml["workspace"] == {}
    assert toml["dependencies"]["burn"] == {
        "version": "=0.22.1", "default-features": False,
        "features": ["std", "flex", "autodiff", "optim"]}
    assert toml["package"]["edition"] == "2021"


def test_every_crate_converts(book):
    """No crate of the book uses an inheritance the converter does not know."""
    for exp in package.experiments(book).values():
        for crate in efiles.crates_of(book, exp):
            text = dmanifest.standalone_toml(book, crate, exp.id)
            assert "workspace = true" not in text and ".workspace" not in text, crate


def test_needs_crates_travel_with_the_script(book):
    files = package.members(book, package.experiments(book)["why-measure"])
    assert {"experiments/why/measure.py", "experiments/why/infer.py",
            "crates/why-infer/Cargo.lock", "crates/why-infer-simd/Cargo.toml"} <= set(files)
    run_sh = files["run.sh"].decode()
    assert "crates/why-infer/Cargo.toml" in run_sh and "target/release/" in run_sh


def test_expected_failure_is_quoted_from_the_manifest(book):
    exps = package.experiments(book)
    e = next(x for x in exps.values() if x.burn and x.burn["expect"]["kind"] == "compile_error")
    readme = package.members(book, e)["README.md"].decode()
    assert f"编译失败，rustc 报 `{e.burn['expect']['value']}`" in readme
    p = next(x for x in exps.values() if x.burn and x.burn["expect"]["kind"] == "panic")
    assert p.burn["expect"]["value"] in package.members(book, p)["README.md"].decode()



def test_offline_experiment_downloads_build_offline(book):
    # A reader with network would otherwise see the download succeed, not the book's outcome.
    e = next(x for x in package.experiments(book).values() if x.burn and x.burn.get("offline"))
    files = package.members(book, e)
    run, readme = files["run.sh"].decode(), files["README.md"].decode()
    for text in (run, readme):
        assert "cargo fetch --locked" in text and "ALL_PROXY=http://127.0.0.1:9" in text
        assert "cargo build --locked --offline" in text and "XDG_DATA_HOME=" in text
    assert f"`{e.burn['expect']['value']}` 的构建脚本" in readme


# --------------------------------------------------------------------------- failure path

def scratch(tmp_path: Path, member_toml: str, root_extra: str = "") -> Book:
    write(tmp_path / "Cargo.toml", '[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n\n'
          '[workspace.package]\nedition = "2021"\n' + root_extra)
    write(tmp_path / "crates" / "odd" / "Cargo.toml", member_toml)
    write(tmp_path / "crates" / "odd" / "src" / "main.rs", "fn main() {}\n")
    write(tmp_path / "experiments" / "odd.yaml",
          "id: odd\nburn:\n  crate: odd\n  features: []\n")
    write(tmp_path / "experiments" / "compare.py", "")
    write(tmp_path / "requirements.lock", "")
    write(tmp_path / "Cargo.lock", "version = 4\n")
    view.reset()
    return Book(tmp_path)


PKG = '[package]\nname = "odd"\nversion = "0.1.0"\nedition.workspace = true\n'


@pytest.mark.parametrize("member, what", [
    (PKG + "\n[lints]\nworkspace = true\n", "lints.workspace"),
    (PKG + "rust-version.workspace = true\n", "package.rust-version"),
    (PKG + "\n[dependencies.helper]\nworkspace = true\n", "dependencies.helper.workspace"),
])
def test_unknown_workspace_key_stops_the_archive_naming_the_experiment(tmp_path, member, what):
    book = scratch(tmp_path, member, root_extra='\n[workspace.dependencies]\nhelper = "1"\n')
    with pytest.raises(BookError) as e:
        package.archive(book, "odd")
    msg = str(e.value)
    assert "实验 odd" in msg and what in msg, msg
    view.reset()


def test_scratch_crate_archive_is_standalone(tmp_path):
    book = scratch(tmp_path, '[package]\nname = "odd"\nversion = "0.1.0"\nedition.workspace = true\n'
                   '# why this crate exists\n', root_extra='\n[profile.release]\ndebug = 1\n')
    files = package.members(book, package.experiments(book)["odd"])
    toml = files["crates/odd/Cargo.toml"].decode()
    assert "# why this crate exists" in toml  # comments are kept
    parsed = tomllib.loads(toml)
    assert parsed["package"]["edition"] == "2021" and parsed["profile"] == {"release": {"debug": 1}}
    assert "requirements.txt" not in files  # no Python side
    view.reset()


# --------------------------------------------------------------------------- the pages

MACRO_RE = re.compile(r"\{\{\s*(pair|outputs_tabs|side_output|compare_output|compare_table)\(\s*"
                      r"(\"[^\"]+\"|[A-Za-z_]\w*)")
SET_RE = re.compile(r"\{%-?\s*set\s+(\w+)\s*=\s*\"([a-z0-9-]+)\"\s*-?%\}")
BLOCK_RE = re.compile(r'<details class="example full-source"[^>]*>\s*<summary>完整程序：([a-z0-9-]+)</summary>'
                      r"(.*?)</details>", re.S)


def referenced(md: str) -> set[str]:
    """Experiments whose code or outputs a page's Markdown shows (ids as literals or set vars)."""
    sets = dict(SET_RE.findall(md))
    out = set()
    for _, arg in MACRO_RE.findall(md):
        out.add(arg.strip('"') if arg.startswith('"') else sets.get(arg, arg))
    return out


def test_every_page_has_full_views_and_working_downloads(site, book):
    exps = package.experiments(book)
    problems, seen = [], 0
    for md in sorted((REPO / "docs").rglob("*.md")):
        src = md.relative_to(REPO / "docs").as_posix()
        url = src.removesuffix(".md").removesuffix("index").rstrip("/")
        html_path = site / url / "index.html" if url else site / "index.html"
        html = html_path.read_text("utf-8")
        blocks = BLOCK_RE.findall(html)
        ids = [i for i, _ in blocks]
        if len(ids) != len(set(ids)):
            problems.append(f"{src}: 同一实验的完整程序出现了不止一次：{ids}")
        for exp_id in sorted(referenced(md.read_text("utf-8"))):
            if exp_id not in exps:
                continue  # a Jinja variable the regex could not resolve
            if exp_id not in ids:
                problems.append(f"{src}: 用到了 {exp_id}，却没有它的完整程序")
        page_url = "/" + (url + "/" if url else "")
        for exp_id, body in blocks:
            seen += 1
            hrefs = re.findall(r'<a href="([^"]+\.tar\.gz)"', body)
            if len(hrefs) != 1 or not hrefs[0].endswith(f"downloads/{exp_id}.tar.gz"):
                problems.append(f"{src}: {exp_id} 的下载链接不对：{hrefs}")
                continue
            assert not urlsplit(hrefs[0]).scheme and not hrefs[0].startswith("/"), hrefs[0]
            target = site / unquote(urlsplit(urljoin(page_url, hrefs[0])).path).lstrip("/")
            if not target.is_file():
                problems.append(f"{src}: {hrefs[0]} 指向不存在的 {target}")
                continue
            got = names(target.read_bytes())
            if not all(n.startswith(f"{exp_id}/") for n in got) or f"{exp_id}/README.md" not in got:
                problems.append(f"{src}: {target.name} 里的文件不对：{got[:3]}")
            labels = re.findall(r"<label[^>]*>([^<]+)</label>", body)
            # A script that reads a crate's data/ brings that crate along: its files go under burn.
            want = (["PyTorch"] if exps[exp_id].python else []) + \
                   (["burn"] if efiles.crates_of(book, exps[exp_id]) else [])
            if labels != want:
                problems.append(f"{src}: {exp_id} 的标签页是 {labels}，应为 {want}")
            texts = {i: unescape(re.sub(r"<[^>]+>", "", b)) for i, b in blocks}

            def shows(path: str, content: str) -> bool:
                """In full here, or named as the same file of an earlier block that has it."""
                if content in texts[exp_id]:
                    return True
                m = re.search(re.escape(path) + r"：和上面「完整程序：([a-z0-9-]+)」里的是同一个文件", texts[exp_id])
                return bool(m) and ids.index(m.group(1)) < ids.index(exp_id) and content in texts[m.group(1)]
            e = exps[exp_id]
            if e.burn:
                crate = e.burn["crate"]
                if not shows(f"crates/{crate}/Cargo.toml", dmanifest.standalone_toml(book, crate, exp_id)):
                    problems.append(f"{src}: {exp_id} 的完整程序里没有下载包里那份独立的 Cargo.toml")
                main_rs = book.crates / crate / "src" / "main.rs"
                if not shows(f"crates/{crate}/src/main.rs", main_rs.read_text("utf-8")):
                    problems.append(f"{src}: {exp_id} 的完整程序里没有完整的 main.rs")
            if e.python and not shows(e.script.relative_to(REPO).as_posix(), e.script.read_text("utf-8")):
                problems.append(f"{src}: {exp_id} 的完整程序里没有完整的脚本")
    assert problems == []
    assert seen > 50
    # Collapsed: no full view is open by default.
    assert not re.search(r'<details class="example full-source"[^>]*\bopen\b', (site / "index.html").read_text("utf-8"))


# --------------------------------------------------------------------------- what a download says

COMPARE_LINE = re.compile(r'^"\$PY" -I experiments/compare\.py out/python\.json out/burn\.json (.*)$', re.M)


def test_every_download_compares_as_its_page_does(book, tmp_path):
    """Each download's comparison command (the one its run.sh runs), on the experiment's cached
    outputs with the volatile fields put back as the programs print them, gives the verdict the
    book recorded (the same exit code). Nothing is compiled."""
    import shlex
    checked, wrong = 0, []
    for exp in package.experiments(book).values():
        d = book.outputs / exp.id
        if not exp.compare or not (d / "python.json").is_file() or not (d / "burn.json").is_file():
            continue
        files = package.members(book, exp)
        m = COMPARE_LINE.search(files["run.sh"].decode())
        assert m, f"{exp.id}: run.sh has no comparison line"
        work = tmp_path / exp.id
        (work / "out").mkdir(parents=True)
        write(work / "experiments" / "compare.py", files["experiments/compare.py"].decode())
        volatile = json.loads((d / "volatile.json").read_text("utf-8"))
        for side in ("python", "burn"):
            data = json.loads((d / f"{side}.json").read_text("utf-8"))
            data.update(volatile.get(side) or {})  # what the program printed, timings and all
            write(work / "out" / f"{side}.json", json.dumps(data))
        p = subprocess.run([str(VENV_PY), "-I", "experiments/compare.py", "out/python.json",
                            "out/burn.json", *shlex.split(m.group(1))], cwd=work, capture_output=True, text=True)
        want = json.loads((d / "outcome.json").read_text("utf-8"))["compare"]["exit_code"]
        if p.returncode != want:
            wrong.append(f"{exp.id}: exit {p.returncode}, the book's {want}: {p.stdout.strip().splitlines()[-1:]}")
        checked += 1
    assert checked > 100 and wrong == [], "\n".join(wrong)


def test_a_volatile_field_left_in_changes_the_verdict(book, tmp_path):
    """The check above can fail: cap-charlm's timings, compared, are a MISMATCH."""
    exp = package.experiments(book)["cap-charlm"]
    d = book.outputs / exp.id
    volatile = json.loads((d / "volatile.json").read_text("utf-8"))
    assert volatile["python"].get("seconds") != volatile["burn"].get("seconds")
    for side in ("python", "burn"):
        data = json.loads((d / f"{side}.json").read_text("utf-8"))
        data.update(volatile[side])
        write(tmp_path / f"{side}.json", json.dumps(data))
    args = [a for a in args_without_drop(exp)]
    p = subprocess.run([str(VENV_PY), "-I", str(REPO / "experiments" / "compare.py"), str(tmp_path / "python.json"),
                        str(tmp_path / "burn.json"), *args], capture_output=True, text=True)
    assert p.returncode == 1 and "MISMATCH" in p.stdout, p.stdout


def args_without_drop(exp) -> list[str]:
    """The comparison's arguments without --drop (what downloads ran before they dropped)."""
    from book.site.downloads.readme import _compare_args
    args = _compare_args(exp)
    i = args.index("--drop")
    return args[:i] + args[i + 2:]


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_damaged_archive_memo_is_made_again(book, damage):
    """target/.book-archive/ (the cut Cargo.lock and the .tar.gz): a memo whose bytes no longer
    match the hash in its name is made again, never put into a download."""
    view.reset()
    good = package.archive(book, A1)
    sealed = re.compile(rf"^{A1}-[0-9a-f]{{32}}-[0-9a-f]{{16}}\.tar\.gz$")
    memos = [p for p in (book.target / ".book-archive" / "tar").glob(f"{A1}-*.tar.gz") if sealed.match(p.name)]
    memos += list((book.target / ".book-archive" / "train-step").glob("*-*.lock"))
    assert len(memos) == 2, memos
    for p in memos:
        data = p.read_bytes()
        p.write_bytes(data[: len(data) // 2] if damage == "truncate" else b"\x1f\x8b garbage")
    view.reset()
    assert package.archive(book, A1) == good
    for p in memos:  # written again, whole
        assert p.is_file() and len(p.read_bytes()) > 1000
    view.reset()
