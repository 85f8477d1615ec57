"""Pitfall pt-legacy-bf16, PyTorch side: A1's MLP (4 -> 8 -> 3) saved twice the ways real
checkpoints come: (a) in the legacy, pre-1.6 non-zip format, (b) with its weights in
bfloat16. Both are loaded back into a float32 model with load_state_dict and run on A1's
float32 inputs. Prints the same JSON structure as crates/p-pt-legacy-bf16-fix.

The burn programs read copies of these two files committed in their crates (written by
make_weights.py, which calls save_checkpoints below).
"""
import json
import math
import struct
from pathlib import Path

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def a1():
    """A1's weights (element k of [out, in] is 0.5·f(k); bias o is 0.01·o), as float32."""
    def weight(rows, cols, f):
        return [[0.5 * f(r * cols + c + 1) for c in range(cols)] for r in range(rows)]
    model = Mlp()
    vals = {"fc1.weight": weight(HID, IN, math.sin), "fc1.bias": [0.01 * o for o in range(HID)],
            "fc2.weight": weight(OUT, HID, math.cos), "fc2.bias": [0.01 * o for o in range(OUT)]}
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.tensor(vals[name]))
    return model


def save_checkpoints(folder: Path):
    # region: save
    model = a1()
    # (a) the legacy format: what torch.save wrote before 1.6, and still writes on request
    torch.save(model.state_dict(), folder / "a1_legacy.pt", _use_new_zipfile_serialization=False)
    # (b) a bfloat16 copy, as mixed-precision training often leaves them
    torch.save(model.to(torch.bfloat16).state_dict(), folder / "a1_bf16.pt")
    # endregion: save


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def f32_fnv(model):
    """FNV-1a (64 bit) of the little-endian f32 bytes of every parameter, in PyTorch's order
    and layout: equal only if every bit of every weight is equal."""
    h = 0xcbf29ce484222325
    for p in model.parameters():
        vals = p.detach().flatten().tolist()
        for byte in struct.pack(f"<{len(vals)}f", *vals):
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


if __name__ == "__main__":
    save_checkpoints(Path("."))
    x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)
    out = {}
    for key, name in (("legacy", "a1_legacy.pt"), ("bf16", "a1_bf16.pt")):
        # region: load
        state = torch.load(name)            # either file: torch.load reads both formats
        model = Mlp()                       # float32
        model.load_state_dict(state)        # copy_ into the float32 parameters
        with torch.no_grad():
            logits = model(x)
        # endregion: load
        out[key] = {
            "file_dtype": str(state["fc1.weight"].dtype),
            "param_dtype": str(model.fc1.weight.dtype),
            "weights_fnv": f32_fnv(model),
            "logits": nums(logits),
        }
    print(json.dumps(out, indent=1))
