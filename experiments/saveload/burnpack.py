"""Save A1's model with torch.save, load it into a freshly initialised model, compare;
then save a second time to the same path. Prints the same JSON structure as
crates/s08-burnpack."""
import json
import math
import os

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


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


model = Mlp()
with torch.no_grad():
    model.fc1.weight.copy_(weight(HID, IN, math.sin))
    model.fc1.bias.copy_(bias(HID))
    model.fc2.weight.copy_(weight(OUT, HID, math.cos))
    model.fc2.bias.copy_(bias(OUT))
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

# region: roundtrip
torch.save(model.state_dict(), "a1.pt")

fresh = Mlp()
differs_before = bits(fresh) != bits(model)
result = fresh.load_state_dict(torch.load("a1.pt"))

with torch.no_grad():
    before, after = model(x), fresh(x)
logits_bit_equal = torch.equal(before.view(torch.int32), after.view(torch.int32))
params_bit_equal = bits(fresh) == bits(model)
# endregion: roundtrip

files = sorted(os.listdir("."))
file_bytes = os.path.getsize("a1.pt")

# region: overwrite
try:
    torch.save(model.state_dict(), "a1.pt")  # the same path again
    second_save = "ok"
except Exception as e:  # noqa: BLE001
    second_save = f"{type(e).__name__}: {e}"
# endregion: overwrite

print(json.dumps({
    "logits": [float(v) for v in after.flatten().tolist()],
    "fresh_differs_before_load": differs_before,
    "logits_bit_equal": logits_bit_equal,
    "params_bit_equal": params_bit_equal,
    "applied": sorted(fresh.state_dict().keys()),
    "missing": len(result.missing_keys),
    "files": files,
    "file_bytes": file_bytes,
    "second_save": second_save,
    "fc1_weight_shape": list(fresh.fc1.weight.shape),
}, indent=1))
