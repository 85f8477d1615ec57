"""The defaults of torch.optim.SGD, Adam and RMSprop, read from their signatures; then
three steps with the defaults, to set against burn's defaults in crates/o04-defaults.
"""
import inspect
import json
import math

import torch
from torch import nn

IN, OUT, STEPS = 3, 2, 3
KEYS = ["lr", "momentum", "dampening", "nesterov", "weight_decay", "betas", "eps",
        "amsgrad", "alpha", "centered"]


# region: defaults
def defaults(cls):
    sig = inspect.signature(cls.__init__)
    return {k: p.default for k, p in sig.parameters.items() if k in KEYS}


table = {cls.__name__: defaults(cls)
         for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.RMSprop)}
# endregion: defaults


def make_linear():
    # Same parameters and gradients as experiments/optim/steps.py.
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return lin


def set_grads(lin, t):
    lin.weight.grad = torch.tensor([[0.1 * math.cos(0.7 * (r * IN + c + 1) + t)
                                     for c in range(IN)] for r in range(OUT)])
    lin.bias.grad = torch.tensor([1e-6 * math.sin(o + 1 + 2 * t) for o in range(OUT)])


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def run(make_optim):
    lin = make_linear()
    optim = make_optim(lin.parameters())
    out = {}
    for t in range(1, STEPS + 1):
        set_grads(lin, t)
        optim.step()
        out[f"step{t}"] = {"weight": nums(lin.weight), "bias": nums(lin.bias)}
    return out


# region: runs
params = {
    "sgd_momentum": run(lambda p: torch.optim.SGD(p, lr=0.001, momentum=0.9)),
    "adam": run(lambda p: torch.optim.Adam(p)),        # lr 0.001
    "rmsprop": run(lambda p: torch.optim.RMSprop(p)),  # lr 0.01
}
# endregion: runs

print(json.dumps({"defaults": table, "params": params}, indent=1))
