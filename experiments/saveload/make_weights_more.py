"""Writes the weight files that s08-save-file and s08-instnorm commit under data/.

Run once by hand (`.venv/bin/python experiments/saveload/make_weights_more.py`) and commit
the output (the two sides of an experiment run in separate temporary directories, so a
file both read lives in the crate). Same A1 weights as make_weights.py.
"""
import math
from pathlib import Path

import torch
from safetensors.torch import save_file
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
IN, HID, OUT = 4, 8, 3
C = 3  # InstanceNorm channels


def weight(rows, cols, f):
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)], dtype=torch.float64)


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)], dtype=torch.float64)


# A1's nn.Sequential, kept in float64 (model.double()) and saved with torch.save.
seq = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT)).double()
with torch.no_grad():
    seq[0].weight.copy_(weight(HID, IN, math.sin)); seq[0].bias.copy_(bias(HID))
    seq[2].weight.copy_(weight(OUT, HID, math.cos)); seq[2].bias.copy_(bias(OUT))
data = ROOT / "crates" / "s08-save-file" / "data"
data.mkdir(parents=True, exist_ok=True)
torch.save(seq.state_dict(), data / "a1_seq_f64.pt")

# An affine InstanceNorm1d: its state_dict keys are norm.weight, norm.bias.
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm1d(C, affine=True)


net = Net()
with torch.no_grad():
    net.norm.weight.copy_(torch.tensor([0.5 + 0.25 * c for c in range(C)]))
    net.norm.bias.copy_(torch.tensor([0.1 * c - 0.1 for c in range(C)]))
data = ROOT / "crates" / "s08-instnorm" / "data"
data.mkdir(parents=True, exist_ok=True)
save_file({k: v.contiguous() for k, v in net.state_dict().items()}, data / "instnorm.safetensors")
print("written", sorted(net.state_dict().keys()))
