"""backward() on a loss that was never reduced: one loss per sample, shape [4].

First the reference gradients (sum, mean, and an explicit all-ones seed), printed as JSON;
then the naive call, which raises.
"""
import json
import math
import sys

import torch

B, IN = 4, 3
x = torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)] for r in range(B)])
t = torch.tensor([0.1 * r for r in range(B)])
w = torch.tensor([[0.5 * math.cos(k + 1)] for k in range(IN)], requires_grad=True)


def per_sample_loss():
    return ((x @ w).reshape(B) - t) ** 2  # shape [4]: one loss per sample


def grad_of(backward):
    w.grad = None
    backward(per_sample_loss())
    return [float(v) for v in w.grad.flatten().tolist()]


# region: reference
g_sum = grad_of(lambda loss: loss.sum().backward())
g_mean = grad_of(lambda loss: loss.mean().backward())
g_ones = grad_of(lambda loss: loss.backward(torch.ones_like(loss)))
# endregion: reference
print(json.dumps({"batch": B, "grads": {"sum": g_sum, "mean": g_mean, "ones": g_ones}},
                 indent=1))
sys.stdout.flush()

# region: nonscalar
w.grad = None
loss = per_sample_loss()  # shape [4], not reduced
loss.backward()           # RuntimeError
# endregion: nonscalar
