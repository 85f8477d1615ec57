"""torch.optim's defaults, read from the optimizers themselves (param_groups[0]), and two
steps of each optimizer with nothing but its defaults, on one Linear(4, 3) with fixed
parameters and fixed gradients. Also SGD with momentum=0.9 and SGD after
clip_grad_norm_(max_norm=1.0). The burn side is in crates/p-optim-defaults-*."""
import json
import math

import torch
from torch import nn

IN, OUT, STEPS = 4, 3, 2
MAX_NORM = 1.0


def make_linear():
    # Element k (1-based, [out, in] order) of the weight is 0.5·sin(k); bias o is 0.5·cos(o + 1).
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([0.5 * math.sin(k + 1) for k in range(OUT * IN)])
                         .reshape(OUT, IN))
        lin.bias.copy_(torch.tensor([0.5 * math.cos(o + 1) for o in range(OUT)]))
    return lin


def set_grads(lin, t):
    # Weight gradients from 2 down to 2e-5 in size, so that eps matters for some of them;
    # bias gradients about 0.5.
    lin.weight.grad = torch.tensor([2 * math.cos(0.7 * (k + 1) + t) * 10.0 ** -((k + 1) % 6)
                                    for k in range(OUT * IN)]).reshape(OUT, IN)
    lin.bias.grad = torch.tensor([0.5 * math.sin(o + 1 + 2 * t) for o in range(OUT)])


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


# region: defaults
def settings(optim):
    # What the optimizer really runs with: its first (only) parameter group.
    group = {k: v for k, v in optim.param_groups[0].items() if k != "params"}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in group.items()}
# endregion: defaults


def run(make_optim, clip=False):
    lin = make_linear()
    optim = make_optim(lin.parameters())
    out = {}
    for t in range(1, STEPS + 1):
        set_grads(lin, t)
        if clip:
            torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=MAX_NORM)
        optim.step()
        out[f"step{t}"] = {"weight": nums(lin.weight), "bias": nums(lin.bias)}
    return out, settings(optim)


# region: runs
runs = {
    "sgd": lambda p: torch.optim.SGD(p),
    "sgd_momentum": lambda p: torch.optim.SGD(p, momentum=0.9),
    "adam": lambda p: torch.optim.Adam(p),
    "adamw": lambda p: torch.optim.AdamW(p),
    "rmsprop": lambda p: torch.optim.RMSprop(p),
}
params, defaults = {}, {}
for name, make in runs.items():
    params[name], defaults[name] = run(make)
# endregion: runs

# region: clip
# Clipping is not an optimizer setting in PyTorch: one call before step(), over all
# parameters together.
params["sgd_clip"], defaults["sgd_clip"] = run(lambda p: torch.optim.SGD(p), clip=True)
# endregion: clip

# A gradient-clipping entry in any optimizer's settings? (There is none.)
has_clipping = {name: any("clip" in k for k in d) for name, d in defaults.items()}

# The grads' norms at step 1, to show what clipping does with them.
lin = make_linear()
set_grads(lin, 1)
norms = {"weight": float(lin.weight.grad.norm()), "bias": float(lin.bias.grad.norm()),
         "total": float(torch.cat([lin.weight.grad.flatten(), lin.bias.grad]).norm())}

print(json.dumps({"defaults": defaults, "has_clipping": has_clipping, "grad_norms": norms,
                  "params": params}, indent=1))
