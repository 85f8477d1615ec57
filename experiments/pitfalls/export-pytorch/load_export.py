"""Pitfall export-pytorch, PyTorch side: load the safetensors files that the two burn
programs export (copies committed in crates/p-export-pytorch-{naive,fix}/data, written by
make_exports.py) into the same model, written in PyTorch, and run it.

For each file: the FNV hash of its tensor bytes (equal to the one the burn program prints
for the file it writes in this run, or the committed copy is stale), the tensors
load_state_dict wants, the error it raises (strict and strict=False), and the output.
"""
import json
import math
from pathlib import Path

import torch
from safetensors.torch import load_file
from torch import nn

ROOT = Path(__file__).resolve().parents[3]
DATA = {"naive": ROOT / "crates" / "p-export-pytorch-naive" / "data",
        "fix": ROOT / "crates" / "p-export-pytorch-fix" / "data"}


# region: model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.ln = nn.LayerNorm(5)
        self.lin = nn.Linear(5, 2)

    def forward(self, x):
        return self.lin(self.ln(self.bn(self.conv(x))))
# endregion: model


class Square(nn.Module):
    """Only a square Linear: a transposed weight has the right shape."""
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def payload_fnv(raw: bytes) -> str:
    """FNV-1a of the tensor bytes after the header (burn's header metadata has no fixed order)."""
    h = 0xcbf29ce484222325
    for byte in raw[8 + int.from_bytes(raw[:8], "little"):]:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def wanted():
    """What load_state_dict(strict=True) wants, one "name dtype shape" line per tensor.
    BatchNorm fills num_batches_tracked in itself when a file lacks it."""
    return [f"{k} F32 " + "x".join(map(str, v.shape)) for k, v in sorted(Net().state_dict().items())
            if not k.endswith("num_batches_tracked")]


def first_line(e: Exception) -> str:
    return str(e).splitlines()[0]


out = {}
for key, folder in DATA.items():
    path = folder / "model.safetensors"
    row = {"payload_fnv": payload_fnv(path.read_bytes()), "tensors": wanted()}
    try:
        # region: load
        model = Net()
        model.load_state_dict(load_file(path))
        model.eval()
        with torch.no_grad():
            y = model(data(2, 2, 3, 5) * 2)
        # endregion: load
        row["y"] = [float(v) for v in y.flatten().tolist()]
        row["num_batches_tracked"] = int(model.bn.num_batches_tracked)
    except RuntimeError as e:
        row["error"] = str(e)
        row["error_first_line"] = first_line(e)
        try:
            Net().load_state_dict(load_file(path), strict=False)
            row["error_strict_false"] = None
        except RuntimeError as e2:
            row["error_strict_false"] = str(e2)
    # region: square
    square = Square()
    square.load_state_dict(load_file(folder / "square.safetensors"))  # no error either way
    with torch.no_grad():
        sq_y = square(data(2, 4) * 2)
    # endregion: square
    row["square_fnv"] = payload_fnv((folder / "square.safetensors").read_bytes())
    row["square_y"] = [float(v) for v in sq_y.flatten().tolist()]
    out[key] = row
print(json.dumps(out, indent=1))
