"""Gradient accumulation the PyTorch way: backward on several micro-batches without zeroing,
so the gradients add up in .grad, then step() and zero_grad(). Linear(3, 2), 8 samples in 4
micro-batches of 2, one SGD update every 2 micro-batches.

Prints the same JSON structure as crates/o04-grad-accum.
"""
import json
import math

import torch
from torch import nn

IN, OUT, MICRO, N_MICRO, ACCUM, LR = 3, 2, 2, 4, 2, 0.1


def make_linear():
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return lin


def micro_batch(i):
    # Rows i·MICRO .. (i+1)·MICRO of x (element k is 0.1·k − 0.5) and of the target (0.5·cos(k)).
    rows = range(i * MICRO, (i + 1) * MICRO)
    x = torch.tensor([[0.1 * (r * IN + c + 1) - 0.5 for c in range(IN)] for r in rows])
    y = torch.tensor([[0.5 * math.cos(r * OUT + c + 1) for c in range(OUT)] for r in rows])
    return x, y


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


model = make_linear()
loss_fn = nn.MSELoss()
optim = torch.optim.SGD(model.parameters(), lr=LR)
params, acc_grads = {}, []

# region: accum
for i in range(N_MICRO):
    x, y = micro_batch(i)
    loss = loss_fn(model(x), y) / ACCUM  # mean over the ACCUM micro-batches
    loss.backward()                      # adds into .grad
    if (i + 1) % ACCUM == 0:
        acc_grads.append(nums(model.weight.grad))
        optim.step()
        optim.zero_grad()                # set .grad to None for the next accumulation
        params[f"update{len(params) + 1}"] = {"weight": nums(model.weight), "bias": nums(model.bias)}
# endregion: accum

print(json.dumps({
    "accumulated_weight_grad": acc_grads,
    "params": params,
    "cleared": model.weight.grad is None and model.bias.grad is None,
}, indent=1))
