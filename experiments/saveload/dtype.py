"""Load A1's weights stored as float64 and as float16 (crates/s08-dtype/data, written by
make_weights.py) into an f32 PyTorch model and run it on A1's inputs.
Prints the same JSON structure as crates/s08-dtype."""
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4
DATA = Path(__file__).resolve().parents[2] / "crates" / "s08-dtype" / "data"


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)


def one(name):
    # region: naive
    sd = load_file(DATA / name)
    model = Mlp()
    model.load_state_dict(sd)  # copies into the existing f32 parameters
    with torch.no_grad():
        logits = model(x)
    # endregion: naive
    return {
        "file_dtype": str(sd["fc1.weight"].dtype),
        "weight_dtype": str(model.fc1.weight.dtype),
        "forward": "ok",
        "logits": [float(v) for v in logits.flatten().tolist()],
    }


print(json.dumps({
    "input_dtype": str(x.dtype),
    "f64": one("a1_f64.safetensors"),
    "f16": one("a1_f16.safetensors"),
}, indent=1))
