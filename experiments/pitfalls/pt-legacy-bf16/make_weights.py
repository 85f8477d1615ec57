"""Writes the checkpoint files that crates/p-pt-legacy-bf16-naive and -fix commit under
data/. Run once by hand (`.venv/bin/python experiments/pitfalls/pt-legacy-bf16/make_weights.py`)
and commit the output: the burn programs run in their own temporary directories, so a file
they read has to live inside the crate. legacy_bf16.py saves the same files with the same code.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from legacy_bf16 import save_checkpoints  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
for crate in ("p-pt-legacy-bf16-naive", "p-pt-legacy-bf16-fix"):
    data = ROOT / "crates" / crate / "data"
    data.mkdir(parents=True, exist_ok=True)
    save_checkpoints(data)
print("written")
