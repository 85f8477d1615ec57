"""Load the committed nn.Sequential weights (crates/s08-load-pt/data, written by
make_weights.py) back into PyTorch, from the .pt state_dict and from the .safetensors file,
and run them on A1's inputs. Prints the same JSON structure as crates/s08-load-pt."""
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4
DATA = Path(__file__).resolve().parents[2] / "crates" / "s08-load-pt" / "data"

x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

# region: model
model = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
# endregion: model

# region: keys
sd = torch.load(DATA / "a1_seq.pt")
keys = sorted(sd.keys())
# endregion: keys

# region: pt
model.load_state_dict(sd)
with torch.no_grad():
    logits_pt = model(x)
# endregion: pt
shapes = {k: list(v.shape) for k, v in sd.items()}

# region: safetensors
model = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
model.load_state_dict(load_file(DATA / "a1_seq.safetensors"))
with torch.no_grad():
    logits_st = model(x)
# endregion: safetensors


def nums(t):
    return [float(v) for v in t.flatten().tolist()]


print(json.dumps({
    "keys": keys,
    "shapes": shapes,
    "fc1_weight_shape": shapes["0.weight"],
    "logits_pt": nums(logits_pt),
    "logits_st": nums(logits_st),
}, indent=1))
