"""docs/assets/targz.js, the archive the scan page's 「生成 burn crate（.tar.gz）」 downloads and
`python -m book.commands.port SCRIPT OUT.tar.gz --tar` writes: Python's tarfile reads node's
archive back with the generator's files and contents under burn-port/, the modes, owners and
times are fixed, and two runs give the same bytes."""
import gzip
import io
import json
import subprocess
import tarfile
import zlib

import pytest

from book.commands import port as cmd
from book.paths import Book
from scratch import REPO

FIXTURE = REPO / "tests" / "scan" / "fixtures" / "cnn_classifier.py"
TARGZ = REPO / "docs" / "assets" / "targz.js"
# node -e: {path: text} on stdin → the .tar.gz on stdout.
PACK = """const t = require(process.argv[1]);
process.stdout.write(t.tarGz(JSON.parse(require('fs').readFileSync(0, 'utf8')), process.argv[2]));"""


def pack(files: dict, top: str = "burn-port") -> bytes:
    out = subprocess.run(["node", "-e", PACK, str(TARGZ), top], input=json.dumps(files).encode(),
                         capture_output=True, check=True)
    return out.stdout


def members(data: bytes) -> dict:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
        return {m.name: (m, t.extractfile(m).read().decode("utf-8")) for m in t.getmembers()}


def check_gzip(data: bytes) -> None:
    assert data[:10] == bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])  # mtime 0, OS 255
    raw = gzip.decompress(data)
    assert int.from_bytes(data[-8:-4], "little") == zlib.crc32(raw)
    assert int.from_bytes(data[-4:], "little") == len(raw)


def test_python_reads_back_what_node_packed():
    files = {"a.txt": "héllo，世界\n", "big.txt": "z" * 200_000, "empty": "", "run.sh": "echo hi\n",
             "d" * 120 + "/x.rs": "fn main() {}\n"}  # over 100 bytes: ustar's prefix field
    data = pack(files)
    check_gzip(data)
    got = members(data)
    assert {k: v[1] for k, v in got.items()} == {"burn-port/" + k: v for k, v in files.items()}
    for name, (m, _) in got.items():
        assert m.isfile() and (m.mtime, m.uid, m.gid) == (0, 0, 0)
        assert m.mode == (0o755 if name.endswith(".sh") else 0o644), name
    assert list(got) == sorted(got)
    assert pack(files) == data
    assert members(pack({})) == {}


def test_make_port_tar_is_the_crate_and_the_same_bytes_twice(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SITE_URL", raising=False)
    a, b = tmp_path / "a.tar.gz", tmp_path / "b.tar.gz"
    assert cmd.main([str(FIXTURE), str(a), "--tar"]) == 0
    assert cmd.main([str(FIXTURE), str(b), "--tar"]) == 0
    assert a.read_bytes() == b.read_bytes()
    check_gzip(a.read_bytes())
    book = Book()
    res = cmd.run_generator(book, cmd.rules(book), FIXTURE.read_text(encoding="utf-8"), FIXTURE.name)
    got = members(a.read_bytes())
    assert {k: v[1] for k, v in got.items()} == {"burn-port/" + k: v for k, v in res["files"].items()}
    assert "burn-port/Cargo.toml" in got and got["burn-port/run.sh"][0].mode == 0o755
    # The archive is never written over.
    capsys.readouterr()
    assert cmd.main([str(FIXTURE), str(a), "--tar"]) == 2
    assert "已经存在" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--tar"], ["x.py", "--tar"]])
def test_tar_usage(argv, capsys):
    assert cmd.main(argv) == 2
    assert "--tar" in capsys.readouterr().err
