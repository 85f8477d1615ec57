"""A1's model and batch, trained for ten SGD steps: the loss before every update."""
import json
import math

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4
STEPS, LR = 10, 0.1


# region: model
class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
# endregion: model


def weight(rows, cols, f):
    # A1's weights: element k (1-based, [out, in]) is 0.5·f(k), rounded to f32 once.
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)])


# region: init
model = Mlp()
with torch.no_grad():
    model.fc1.weight.copy_(weight(HID, IN, math.sin))
    model.fc1.bias.copy_(torch.tensor([0.01 * o for o in range(HID)]))
    model.fc2.weight.copy_(weight(OUT, HID, math.cos))
    model.fc2.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
# endregion: init

# region: data
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)
y = torch.tensor([b % OUT for b in range(BATCH)])
# endregion: data

# region: loop
loss_fn = nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), lr=LR)
losses = []
for step in range(STEPS):
    optim.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optim.step()
    losses.append(loss.item())
# endregion: loop

with torch.no_grad():
    final = loss_fn(model(x), y).item()
print(json.dumps({
    "loss": {f"step{k + 1:02d}": v for k, v in enumerate(losses)},
    "loss_final": final,
    "params": {n: [float(v) for v in p.detach().flatten().tolist()]
               for n, p in model.named_parameters()},
}))
