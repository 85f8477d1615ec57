"""Writes the weight files that crates/p-weight-dtype-naive and crates/p-weight-dtype-fix
commit under data/.

Run once by hand (`.venv/bin/python experiments/pitfalls/weight-dtype/make_weights.py`) and
commit the output. The PyTorch script and the burn programs run in separate temporary
directories, so a file that burn reads has to live inside its crate. weight_dtype.py saves
the same files again, with the same code, and the experiments compare the weights that both
sides read from them, exactly (tolerance 0).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from weight_dtype import save_checkpoints  # noqa: E402  (the script's own saving code)

ROOT = Path(__file__).resolve().parents[3]
for crate in ("p-weight-dtype-naive", "p-weight-dtype-fix"):
    data = ROOT / "crates" / crate / "data"
    data.mkdir(parents=True, exist_ok=True)
    save_checkpoints(data)
print("written")
