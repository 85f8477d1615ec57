"""Pitfall weight-dtype, PyTorch side: A1's weights saved in float64 (.pt, torch.save) and in
float16 (.safetensors), then loaded into a float32 model with load_state_dict and run on
A1's float32 inputs. Prints the same JSON structure as crates/p-weight-dtype-fix.

The burn programs read copies of these two files committed in their crates (written by
make_weights.py, which calls save_checkpoints below); the `weights_fnv` fields (a hash of
the f32 bits of every weight) let the experiments check that both sides read the same numbers.
"""
import json
import math
import struct
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def a1_f64():
    """A1's weights as float64 values (element k of [out, in] is 0.5·f(k); bias o is 0.01·o)."""
    def weight(rows, cols, f):
        return [[0.5 * f(r * cols + c + 1) for c in range(cols)] for r in range(rows)]
    return {"fc1.weight": weight(HID, IN, math.sin), "fc1.bias": [0.01 * o for o in range(HID)],
            "fc2.weight": weight(OUT, HID, math.cos), "fc2.bias": [0.01 * o for o in range(OUT)]}


def save_checkpoints(folder: Path):
    # region: save
    # A model trained in float64, saved as usual...
    model = Mlp().double()
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.tensor(a1_f64()[name], dtype=torch.float64))
    torch.save(model.state_dict(), folder / "a1_f64.pt")
    # ...and a half-precision copy of it, as checkpoints on model hubs often are.
    half = {k: v.half().contiguous() for k, v in model.state_dict().items()}
    save_file(half, folder / "a1_f16.safetensors")
    # endregion: save


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def f32_fnv(model):
    """FNV-1a (64 bit) of the little-endian f32 bytes of every parameter, in PyTorch's order
    and layout (fc1.weight [out, in], fc1.bias, fc2.weight, fc2.bias): equal only if every
    bit of every weight is equal."""
    h = 0xcbf29ce484222325
    for p in model.parameters():
        vals = p.detach().flatten().tolist()
        for byte in struct.pack(f"<{len(vals)}f", *vals):
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


if __name__ == "__main__":
    save_checkpoints(Path("."))
    x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

    out = {"input_dtype": str(x.dtype)}
    for key, name, read in (("f64", "a1_f64.pt", torch.load), ("f16", "a1_f16.safetensors", load_file)):
        # region: load
        state = read(name)                  # torch.load("a1_f64.pt") / load_file("a1_f16.safetensors")
        model = Mlp()                       # float32, like every freshly built model
        model.load_state_dict(state)        # copy_ into the float32 parameters
        with torch.no_grad():
            logits = model(x)
        # endregion: load
        out[key] = {
            "file_dtype": str(state["fc1.weight"].dtype),
            "param_dtype": str(model.fc1.weight.dtype),
            "logits_dtype": str(logits.dtype),
            "weights_fnv": f32_fnv(model),
            "logits": nums(logits),
        }
    print(json.dumps(out, indent=1))
