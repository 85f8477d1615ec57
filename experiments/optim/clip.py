"""Gradient clipping by norm: torch.nn.utils.clip_grad_norm_ (one global norm over all the
parameters) before one SGD step, from the same parameters and gradients as crates/o04-clip.

Prints the same JSON structure as crates/o04-clip. params_global is the same run as params:
on the burn side it is the variant that computes the global norm by hand.
"""
import json
import math

import torch
from torch import nn

IN, OUT, MAX_NORM, LR = 3, 2, 1.0, 0.1


# region: setup
def make_linear():
    # Weight element k (1-based, [out, in] order) is 0.5·sin(k); bias element o is 0.01·o.
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return lin


def set_grads(lin):
    # Large enough to clip, with different norms: weight grad element k is 1.5·cos(0.7·k + 1),
    # the bias grad is [3, -4] (norm 5).
    lin.weight.grad = torch.tensor([[1.5 * math.cos(0.7 * (r * IN + c + 1) + 1)
                                     for c in range(IN)] for r in range(OUT)])
    lin.bias.grad = torch.tensor([3.0, -4.0])
# endregion: setup


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


lin = make_linear()
set_grads(lin)
weight_norm = lin.weight.grad.norm().item()
bias_norm = lin.bias.grad.norm().item()

# region: clip
optim = torch.optim.SGD(lin.parameters(), lr=LR)
total = torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=MAX_NORM)  # one norm for all
optim.step()
# endregion: clip

params = {"weight": nums(lin.weight), "bias": nums(lin.bias)}
print(json.dumps({
    "norms": {"weight": weight_norm, "bias": bias_norm, "global": total.item()},
    "clipped_grad_norms": {"weight": lin.weight.grad.norm().item(),
                           "bias": lin.bias.grad.norm().item()},
    "params": params,
    "params_global": params,
}, indent=1))
