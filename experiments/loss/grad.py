"""backward() and reading gradients of f = sum(tanh(x @ w + b) * c).

x, w, b are leaves that require gradients; c is a constant.
Prints the same JSON structure as crates/l03-grad.
"""
import json
import math

import torch


def grid(rows, cols, f):
    # Element k (1-based, row-major) is f(k), in f64, rounded to f32 once.
    return torch.tensor([[f(r * cols + c + 1) for c in range(cols)] for r in range(rows)])


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


# region: leaves
x = grid(2, 3, lambda k: 0.5 * math.sin(k)).requires_grad_()
w = grid(3, 4, lambda k: 0.5 * math.cos(k)).requires_grad_()
b = torch.tensor([0.1 * o - 0.1 for o in range(4)], requires_grad=True)
c = grid(2, 4, lambda k: 0.1 * k - 0.4)  # a constant: no gradient
# endregion: leaves

# region: backward
f = (torch.tanh(x @ w + b) * c).sum()
f.backward()
grads = {"x": nums(x.grad), "w": nums(w.grad), "b": nums(b.grad)}
c_has_grad = c.grad is not None
# endregion: backward

print(json.dumps({
    "f": nums(f),
    "grads": grads,
    "c_has_grad": c_has_grad,
    "shape": {"x": list(x.grad.shape), "w": list(w.grad.shape), "b": list(b.grad.shape)},
}, indent=1))
