"""nn.Linear(4, 3) with fixed weights: the weight's shape, the output, y = x·Wᵀ + b.

Prints the same JSON structure as crates/m02-linear.
"""
import json
import math

import torch
from torch import nn

IN, OUT, BATCH = 4, 3, 2


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


# region: load
# PyTorch's order [out, in]: element k (1-based) is 0.5·sin(k), in f64, rounded to f32 once.
w = torch.tensor([[0.5 * math.sin(o * IN + i + 1) for i in range(IN)] for o in range(OUT)])
b = torch.tensor([0.01 * o for o in range(OUT)])
lin = nn.Linear(IN, OUT)
with torch.no_grad():
    lin.weight.copy_(w)
    lin.bias.copy_(b)
# endregion: load

# region: forward
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)
y = lin(x)
y_formula = x @ lin.weight.T + lin.bias  # what Linear computes, written out
# endregion: forward

# region: square
# A square layer (4 → 4): the same [out, in] numbers, loaded as PyTorch expects.
sq = nn.Linear(IN, IN)
w_sq = torch.tensor([[0.5 * math.sin(o * IN + i + 1) for i in range(IN)] for o in range(IN)])
with torch.no_grad():
    sq.weight.copy_(w_sq)
    sq.bias.zero_()
y_square = sq(x)
# endregion: square

print(json.dumps({
    "weight_shape": list(lin.weight.shape),
    "bias_shape": list(lin.bias.shape),
    "y_shape": list(y.shape),
    "y": nums(y),
    "y_formula": nums(y_formula),
    "y_square": nums(y_square),
}, indent=1))
