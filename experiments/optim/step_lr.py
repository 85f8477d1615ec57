"""optimizer.step() updates the model in place, and the learning rate lives in the
optimizer's param_groups. Three SGD steps with the learning rate halved each step.

Prints the same JSON structure as crates/o04-step-lr.
"""
import json
import math

import torch
from torch import nn

IN, OUT, B = 3, 2, 4


def make_linear():
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return lin


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


x = torch.tensor([[0.1 * (r * IN + c + 1) - 0.5 for c in range(IN)] for r in range(B)])
target = torch.tensor([[0.5 * math.cos(r * OUT + c + 1) for c in range(OUT)] for r in range(B)])
loss_fn = nn.MSELoss()

# region: step
model = make_linear()
weight_before = model.weight
optim = torch.optim.SGD(model.parameters(), lr=0.1)
losses, lrs, params = [], [], {}
for t, lr in enumerate([0.1, 0.05, 0.025], start=1):
    for group in optim.param_groups:
        group["lr"] = lr  # the learning rate is stored in the optimizer
    optim.zero_grad()
    loss = loss_fn(model(x), target)
    loss.backward()
    optim.step()  # no return value: model's tensors change in place
    losses.append(loss.item())
    lrs.append(optim.param_groups[0]["lr"])
    params[f"step{t}"] = {"weight": nums(model.weight), "bias": nums(model.bias)}
same_tensor = model.weight is weight_before
# endregion: step

print(json.dumps({"loss": losses, "lr": lrs, "params": params,
                  "same_weight_tensor": same_tensor}, indent=1))
