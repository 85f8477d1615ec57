"""Writes the checkpoint files that crates/p-norm-param-names-naive and -fix commit under
data/. Run once by hand (`.venv/bin/python experiments/pitfalls/norm-param-names/make_weights.py`)
and commit the output: the burn programs run in their own temporary directories, so a file
they read has to live inside the crate. norm_params.py saves the same files with the same code.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from norm_params import save_checkpoints  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
for crate in ("p-norm-param-names-naive", "p-norm-param-names-fix"):
    data = ROOT / "crates" / crate / "data"
    data.mkdir(parents=True, exist_ok=True)
    save_checkpoints(data)
print("written")
