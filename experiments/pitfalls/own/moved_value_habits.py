"""Three PyTorch habits that reuse a tensor freely: a residual connection, a buffer used
inside forward(self), and adding tensors pair by pair in a loop. None of them moves anything."""
import json
import math

import torch
from torch import nn

D = 4  # features
B = 2  # batch


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]


x = torch.tensor(seq(B * D, math.sin, 0.5)).reshape(B, D)

# A Linear layer with fixed weights, so burn can build the same one.
layer = nn.Linear(D, D)
with torch.no_grad():
    layer.weight.copy_(torch.tensor(seq(D * D, math.cos, 0.3)).reshape(D, D))  # [out, in]
    layer.bias.copy_(torch.tensor(seq(D, math.sin, 0.1)))

# region: residual
y = layer(x) + x  # x is used twice
# endregion: residual


# region: buffer
class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", mean)  # [1, D]
        self.register_buffer("std", std)    # [1, D]

    def forward(self, x):
        return (x - self.mean) / self.std  # self.mean, self.std read, not taken


norm = Normalize(torch.tensor([seq(D, math.cos, 0.2)]), torch.tensor([[1.0, 2.0, 4.0, 0.5]]))
n1 = norm(x)
n2 = norm(x * 2)  # the module works a second time
# endregion: buffer

xs = [x * (i + 1) for i in range(3)]
ys = [x - i for i in range(3)]
# region: pairs
outs = []
for a, b in zip(xs, ys):
    outs.append(a + b)  # a, b still live in xs, ys
# endregion: pairs

flat = lambda t: [float(v) for v in t.detach().flatten().tolist()]
print(json.dumps({
    "residual": flat(y),
    "normalize": {"first": flat(n1), "second": flat(n2)},
    "pairs": [flat(o) for o in outs],
    "xs_still_usable": flat(xs[0] + ys[0]),
}, indent=1))
