"""Inference the PyTorch way: model.eval() turns Dropout off, torch.no_grad() stops the graph.
An MLP 4 -> 8 -> 3 with Dropout(0.5) after the hidden layer, fixed weights and input."""
import json
import math

import torch
from torch import nn

IN, HID, OUT, B = 4, 8, 3, 4


def linear(out, inp, f):
    lin = nn.Linear(inp, out)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([0.5 * f(k + 1) for k in range(out * inp)]).reshape(out, inp))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))
    return lin


model = nn.Sequential(linear(HID, IN, math.sin), nn.ReLU(), nn.Dropout(0.5), linear(OUT, HID, math.cos))
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(B * IN)]).reshape(B, IN)

# region: infer
model.eval()               # Dropout passes its input through
with torch.no_grad():      # no graph
    out = model(x)
    again = model(x)
# endregion: infer

flat = lambda t: [float(v) for v in t.flatten().tolist()]
print(json.dumps({
    "training": model.training,
    "out": flat(out),
    "repeatable": torch.equal(out, again),
}, indent=1))
