"""A regression step written the PyTorch way: the squared error is averaged over the batch
before backward(). Also records what PyTorch does when the mean is left out."""
import json
import math

import torch

B, IN = 8, 3  # batch, features


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]


x = torch.tensor(seq(B * IN, math.sin, 0.5)).reshape(B, IN)
t = torch.tensor(seq(B, math.cos, 0.3)).reshape(B, 1)
w = torch.tensor(seq(IN, math.cos, 0.5)).reshape(IN, 1).requires_grad_()
b = torch.tensor([0.1]).requires_grad_()

# region: loss
pred = x @ w + b                  # [B, 1]
loss = ((pred - t) ** 2).mean()   # mean over the batch: a 0-dim tensor
loss.backward()
# endregion: loss

# Leaving the mean out: PyTorch refuses the backward of a non-scalar.
try:
    ((x @ w + b - t) ** 2).backward()
    nonscalar = "no error"
except RuntimeError as e:
    nonscalar = f"RuntimeError: {e}"

flat = lambda v: [float(a) for a in v.detach().flatten().tolist()]
print(json.dumps({
    "batch": B,
    "loss": loss.item(),
    "loss_dims": list(loss.shape),
    "grad_w": flat(w.grad),
    "grad_b": flat(b.grad),
    "nonscalar_backward": nonscalar,
}, indent=1))
