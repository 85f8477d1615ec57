"""Writes the safetensors files that crates/p-export-pytorch-naive and -fix commit under
data/: each burn program's `export DIR` subcommand saves its model there. Run by hand after
changing either program (`.venv/bin/python experiments/pitfalls/export-pytorch/make_exports.py`)
and commit the files; load_export.py's hash check fails while a copy is stale.
"""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
for crate in ("p-export-pytorch-naive", "p-export-pytorch-fix"):
    data = ROOT / "crates" / crate / "data"
    data.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cargo", "run", "-q", "--release", "--locked", "-p", crate, "--", "export",
                    str(data)], cwd=ROOT, check=True)
print("written")
