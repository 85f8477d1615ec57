"""The A1 MLP (4 → 8 → 3) as an nn.Module, with A1's fixed weights; one forward pass."""
import json
import math

import torch
from torch import nn


# region: model
class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
# endregion: model


model = Mlp()
# A1's weights: [out, in], element k (from 1) is 0.5·sin(k) / 0.5·cos(k); bias o is 0.01·o.
with torch.no_grad():
    for lin, f in ((model.fc1, math.sin), (model.fc2, math.cos)):
        out, inp = lin.weight.shape
        lin.weight.copy_(torch.tensor([[0.5 * f(r * inp + c + 1) for c in range(inp)]
                                       for r in range(out)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))

# region: main
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(16)]).reshape(4, 4)
y = model(x)
# endregion: main
print(json.dumps({
    "shape": list(y.shape),
    "y": [float(v) for v in y.detach().flatten().tolist()],
}, indent=1))
