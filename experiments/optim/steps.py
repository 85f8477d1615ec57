"""SGD (momentum, Nesterov), Adam (without and with L2) and RMSprop (plain, centered with momentum): three steps
each from the same parameters and the same gradients, every hyper-parameter set explicitly.

Prints the same JSON structure as crates/o04-steps.
"""
import json
import math

import torch
from torch import nn

IN, OUT, STEPS = 3, 2, 3


# region: setup
def make_linear():
    # Weight element k (1-based, [out, in] order) is 0.5·sin(k); bias element o is 0.01·o.
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return lin


def set_grads(lin, t):
    # Step t (1-based): weight grad element k is 0.1·cos(0.7·k + t);
    # bias grad element o is 1e-6·sin(o + 1 + 2t), small next to eps on purpose.
    lin.weight.grad = torch.tensor([[0.1 * math.cos(0.7 * (r * IN + c + 1) + t)
                                     for c in range(IN)] for r in range(OUT)])
    lin.bias.grad = torch.tensor([1e-6 * math.sin(o + 1 + 2 * t) for o in range(OUT)])
# endregion: setup


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


# region: run
def run(make_optim):
    lin = make_linear()
    optim = make_optim(lin.parameters())
    out = {}
    for t in range(1, STEPS + 1):
        set_grads(lin, t)
        optim.step()  # updates lin's parameters in place
        out[f"step{t}"] = {"weight": nums(lin.weight), "bias": nums(lin.bias)}
    return out, optim
# endregion: run


KEYS = ["lr", "momentum", "dampening", "nesterov", "weight_decay", "betas", "eps",
        "amsgrad", "alpha", "centered"]

params, config = {}, {}
for name, make in {
    # region: sgd
    "sgd": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1,
                                     nesterov=False, weight_decay=0.01),
    "sgd_nesterov": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.0,
                                              nesterov=True, weight_decay=0.0),
    # endregion: sgd
    # region: adam
    "adam": lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.9, 0.999), eps=1e-8,
                                       weight_decay=0.0, amsgrad=False),
    "adam_l2": lambda p: torch.optim.Adam(p, lr=0.01, betas=(0.9, 0.999), eps=1e-8,
                                          weight_decay=0.01, amsgrad=False),
    # endregion: adam
    # region: rmsprop
    "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.99, eps=1e-8,
                                             momentum=0.0, centered=False, weight_decay=0.0),
    "rmsprop_centered": lambda p: torch.optim.RMSprop(p, lr=0.01, alpha=0.99, eps=1e-8,
                                                      momentum=0.9, centered=True,
                                                      weight_decay=0.01),
    # endregion: rmsprop
}.items():
    params[name], optim = run(make)
    config[name] = {k: optim.defaults[k] for k in KEYS if k in optim.defaults}

# region: eps
# Adam's first update of bias[0] (it starts at 0), redone by hand in f64 with three
# placements of eps. m and v after one step are (1-b1)·g and (1-b2)·g².
lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
lin = make_linear()
set_grads(lin, 1)
g = float(lin.bias.grad[0])
m, v, bc1, bc2 = (1 - b1) * g, (1 - b2) * g * g, 1 - b1, 1 - b2
eps_placement = {
    "grad": g,
    "torch_adam": params["adam"]["step1"]["bias"][0],
    # torch.optim.Adam: eps outside the sqrt, after the bias correction
    "eps_outside": -lr * (m / bc1) / (math.sqrt(v / bc2) + eps),
    # eps outside the sqrt but not scaled by sqrt(bc2): the effective eps is eps/sqrt(bc2)
    "eps_unscaled": -lr * math.sqrt(bc2) / bc1 * m / (math.sqrt(v) + eps),
    # eps inside the sqrt
    "eps_inside_sqrt": -lr * (m / bc1) / math.sqrt(v / bc2 + eps),
}
# endregion: eps

print(json.dumps({"config": config, "params": params, "adam_eps_placement": eps_placement},
                 indent=1))
