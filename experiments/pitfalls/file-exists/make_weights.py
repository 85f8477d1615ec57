"""Writes the weight files that crates/p-file-exists-keys-naive and crates/p-file-exists-fix
commit under data/.

Run once by hand (`.venv/bin/python experiments/pitfalls/file-exists/make_weights.py`) and
commit the output. The PyTorch script and the burn programs run in separate temporary
directories, so a file that burn reads has to live inside its crate. file_exists.py saves
the same files again, with the same code, and the fix experiment compares the weights that
both sides read from them, exactly (tolerance 0).
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from file_exists import save_sequential  # noqa: E402  (the script's own saving code)

ROOT = Path(__file__).resolve().parents[3]
for crate in ("p-file-exists-keys-naive", "p-file-exists-fix"):
    data = ROOT / "crates" / crate / "data"
    data.mkdir(parents=True, exist_ok=True)
    save_sequential(data)
    if crate == "p-file-exists-keys-naive":
        (data / "a1_seq.safetensors").unlink()  # the naive port reads only the .pt
    for f in data.iterdir():
        os.chmod(f, 0o644)
print("written")
