"""A small training loop the PyTorch way: optimizer.step() updates the model in place.
The loss goes down step by step."""
import json
import math

import torch
from torch import nn

IN, HID, OUT, B, STEPS, LR = 4, 8, 3, 4, 5, 0.1


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]  # f64, rounded to f32 once below


def linear(out, inp, f):
    """Weight element k of [out, in] is 0.5·f(k), bias element o is 0.01·o."""
    fc = nn.Linear(inp, out)
    with torch.no_grad():
        fc.weight.copy_(torch.tensor(seq(out * inp, f, 0.5)).reshape(out, inp))
        fc.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))
    return fc


model = nn.Sequential(linear(HID, IN, math.sin), nn.ReLU(), linear(OUT, HID, math.cos))
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(B * IN)]).reshape(B, IN)
y = torch.tensor([b % OUT for b in range(B)])
loss_fn = nn.CrossEntropyLoss()

initial_bias = model[2].bias.detach().clone()

# region: train
optimizer = torch.optim.SGD(model.parameters(), lr=LR)
losses = []
for step in range(STEPS):
    loss = loss_fn(model(x), y)
    losses.append(loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # updates model's parameters in place
# endregion: train
losses.append(loss_fn(model(x), y).item())

print(json.dumps({
    "config": {"in": IN, "hidden": HID, "out": OUT, "batch": B, "steps": STEPS, "lr": LR,
               "optimizer": "SGD"},
    "losses": losses,
    "loss_went_down": losses[-1] < losses[0],
    "params_changed": not torch.equal(model[2].bias.detach(), initial_bias),
    "fc2_bias": [float(v) for v in model[2].bias.detach().tolist()],
}, indent=1))
