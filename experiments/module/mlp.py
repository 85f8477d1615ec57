"""A custom MLP as an nn.Module: its parameters counted and listed, and forward called twice.

Prints the same JSON structure as crates/m02-mlp.
"""
import json
import math

import torch
from torch import nn


# region: define
class Mlp(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
# endregion: define


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


# region: count
model = Mlp(784, 128, 10)
num_params = sum(p.numel() for p in model.parameters())
names = [name for name, _ in model.named_parameters()]
shapes = [list(p.shape) for _, p in model.named_parameters()]
numels = [p.numel() for _, p in model.named_parameters()]
# endregion: count

# The A1 network, 4 → 8 → 3, with A1's weights ([out, in], element k is 0.5·sin(k) / 0.5·cos(k)).
small = Mlp(4, 8, 3)
with torch.no_grad():
    for lin, f in ((small.fc1, math.sin), (small.fc2, math.cos)):
        out, inp = lin.weight.shape
        lin.weight.copy_(torch.tensor([[0.5 * f(r * inp + c + 1) for c in range(inp)]
                                       for r in range(out)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(16)]).reshape(4, 4)

# region: forward
calls = []
small.register_forward_hook(lambda module, inputs, output: calls.append("hook"))
y1 = small(x)                  # __call__: forward, then the hook
hooks_after_call = len(calls)
y2 = small.forward(x)          # forward directly: the hook does not run
hooks_after_forward = len(calls)
# endregion: forward

print(json.dumps({
    "children": [name for name, _ in model.named_children()],
    "num_params": num_params,
    "param_names": names,
    "param_numel": numels,
    "param_shapes": shapes,
    "y": nums(y1),
    "same_twice": torch.equal(y1, y2),
    "hooks_after_call": hooks_after_call,
    "hooks_after_forward": hooks_after_forward,
}, indent=1))
