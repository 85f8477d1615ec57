"""torch.save / load_state_dict for A1's model (PyTorch's side of Module::save_file /
load_file), torch.save twice to the same path, then the float64 .pt committed in
crates/s08-save-file/data (make_weights_more.py) loaded into a float32 model.
Prints the same JSON structure as crates/s08-save-file."""
import json
import math
import os
from pathlib import Path

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4
PT = Path(__file__).resolve().parents[2] / "crates" / "s08-save-file" / "data" / "a1_seq_f64.pt"


def weight(rows, cols, f):
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)])


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)])


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)  # freshly initialised (random) weights
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def bits(m):
    return [p.detach().view(torch.int32).flatten().tolist() for p in m.parameters()]


def nums(t):
    return [float(v) for v in t.flatten().tolist()]


model = Mlp()
with torch.no_grad():
    model.fc1.weight.copy_(weight(HID, IN, math.sin)); model.fc1.bias.copy_(bias(HID))
    model.fc2.weight.copy_(weight(OUT, HID, math.cos)); model.fc2.bias.copy_(bias(OUT))
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

# region: save_file
torch.save(model.state_dict(), "a1.pt")

loaded = Mlp()
loaded.load_state_dict(torch.load("a1.pt"))
with torch.no_grad():
    logits_loaded = loaded(x)
# endregion: save_file
files_after_save = sorted(os.listdir("."))
params_bit_equal = bits(loaded) == bits(model)

# region: overwrite
other = Mlp()  # different (random) weights
try:
    torch.save(other.state_dict(), "a1.pt")
    second_save = "ok"
except Exception as e:  # noqa: BLE001
    second_save = f"{type(e).__name__}: {e}"
reread = Mlp()
reread.load_state_dict(torch.load("a1.pt"))
second_write_wins = bits(reread) == bits(other)
# endregion: overwrite

# region: pt_apply
sd = torch.load(PT)                       # float64 tensors
model_pt = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
model_pt.load_state_dict(sd)              # copy_ into float32 parameters
with torch.no_grad():
    logits_pt = model_pt(x)
# endregion: pt_apply

print(json.dumps({
    "files_after_save": files_after_save,
    "params_bit_equal": params_bit_equal,
    "logits_loaded": nums(logits_loaded),
    "second_save": second_save,
    "second_write_wins": second_write_wins,
    "file_dtype": str(sd["0.weight"].dtype),
    "weight_dtype": str(model_pt[0].weight.dtype),
    "logits_pt": nums(logits_pt),
}, indent=1))
