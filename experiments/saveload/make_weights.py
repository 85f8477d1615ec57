"""Writes the small weight files that the s08 crates commit under data/.

Run once by hand (`.venv/bin/python experiments/saveload/make_weights.py`) and commit the
output: the PyTorch scripts and the burn programs run in separate temporary directories,
so a file that both sides must read has to live in the repository, inside the crate.
The weights are A1's (see docs/index.md), computed in f64.
"""
import math
from pathlib import Path

import torch
from safetensors.torch import save_file
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
IN, HID, OUT = 4, 8, 3


def weight(rows, cols, f, dtype):
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)], dtype=dtype)


def bias(n, dtype):
    return torch.tensor([0.01 * o for o in range(n)], dtype=dtype)


def a1(dtype):
    return {"w1": weight(HID, IN, math.sin, dtype), "b1": bias(HID, dtype),
            "w2": weight(OUT, HID, math.cos, dtype), "b2": bias(OUT, dtype)}


# An nn.Sequential: its state_dict keys are 0.weight, 0.bias, 2.weight, 2.bias
# (index 1 is the ReLU, which has no parameters).
seq = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
p = a1(torch.float32)
with torch.no_grad():
    seq[0].weight.copy_(p["w1"]); seq[0].bias.copy_(p["b1"])
    seq[2].weight.copy_(p["w2"]); seq[2].bias.copy_(p["b2"])
data = ROOT / "crates" / "s08-load-pt" / "data"
data.mkdir(parents=True, exist_ok=True)
torch.save(seq.state_dict(), data / "a1_seq.pt")
save_file({k: v.contiguous() for k, v in seq.state_dict().items()}, data / "a1_seq.safetensors")

# The same weights under fc1/fc2 names, stored as float64 and as float16.
data = ROOT / "crates" / "s08-dtype" / "data"
data.mkdir(parents=True, exist_ok=True)
for dtype, name in ((torch.float64, "a1_f64"), (torch.float16, "a1_f16")):
    p = a1(torch.float64)  # the f64 values, rounded once to the stored dtype
    sd = {"fc1.weight": p["w1"], "fc1.bias": p["b1"], "fc2.weight": p["w2"], "fc2.bias": p["b2"]}
    save_file({k: v.to(dtype).contiguous() for k, v in sd.items()}, data / f"{name}.safetensors")
print("written")
