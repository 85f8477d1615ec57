"""An affine nn.InstanceNorm1d loaded back from the safetensors file committed in
crates/s08-instnorm/data (make_weights_more.py). Prints the same JSON structure as
crates/s08-instnorm."""
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from torch import nn

C, BATCH, LEN = 3, 2, 5
ST = Path(__file__).resolve().parents[2] / "crates" / "s08-instnorm" / "data" / "instnorm.safetensors"


# region: model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm1d(C, affine=True)  # parameters weight, bias
# endregion: model


x = torch.tensor([((k * 7) % 11) * 0.3 - 1.0 for k in range(BATCH * C * LEN)]).reshape(BATCH, C, LEN)

# region: fix
sd = load_file(ST)
model = Net()
result = model.load_state_dict(sd)
with torch.no_grad():
    y = model.norm(x)
# endregion: fix

print(json.dumps({
    "keys": sorted(sd.keys()),
    "missing": list(result.missing_keys),
    "unexpected": list(result.unexpected_keys),
    "gamma": [float(v) for v in model.norm.weight.detach().tolist()],
    "y": [float(v) for v in y.flatten().tolist()],
}, indent=1))
