"""Writes the files that crates/ref-store commits under data/. Run by hand after changing
Zoo or Small (`.venv/bin/python experiments/reference/make_store_weights.py`) and commit them:
- zoo.pt: make_zoo()'s state_dict (ref_store/harness.py), saved by PyTorch;
- gru.pt: make_gru()'s state_dict (the same file), an nn.GRU's stacked gates;
- hf/: save_hf(), a tiny GPT-2 in the hub's layout, whole and sharded with its index JSON;
- ckpt.pt: make_checkpoint() (the same file), a whole training checkpoint (epoch, a DataParallel
  model's state_dict, Adam's state_dict), saved by PyTorch;
- small_export.safetensors: what the burn program exports (it runs `cargo run -p ref-store
  -- export DIR`), which ref_store's PyTorch side then loads. The comparison checks its
  hash against the file the burn program writes in each run.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent / "ref_store"))
from harness import DATA, make_checkpoint, make_gru, make_zoo, save_hf  # noqa: E402

import torch  # noqa: E402

DATA.mkdir(parents=True, exist_ok=True)
torch.save(make_zoo().state_dict(), DATA / "zoo.pt")
torch.save(make_checkpoint(), DATA / "ckpt.pt")
torch.save(make_gru().state_dict(), DATA / "gru.pt")
save_hf()
subprocess.run(["cargo", "run", "-q", "--release", "--locked", "-p", "ref-store", "--", "export",
                str(DATA)], cwd=ROOT, check=True)
print("written")
