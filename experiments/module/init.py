"""nn.Linear(256, 64)'s default initialisation: the bound from the source, and the draws within it.

Prints the same JSON structure as crates/m02-init (the draws themselves are not compared).
"""
import inspect
import json
import math

import torch
from torch import nn
from torch.nn import init

D_IN, D_OUT = 256, 64

# region: bound
# reset_parameters: kaiming_uniform_(weight, a=√5), i.e. gain = calculate_gain("leaky_relu", √5),
# bound = gain · √(3 / fan_in); the bias gets U(-1/√fan_in, 1/√fan_in).
gain = init.calculate_gain("leaky_relu", math.sqrt(5))
weight_bound = gain * math.sqrt(3.0 / D_IN)
bias_bound = 1 / math.sqrt(D_IN)
# endregion: bound

# region: draw
torch.manual_seed(0)
lin = nn.Linear(D_IN, D_OUT)
w_max = lin.weight.abs().max().item()
b_max = lin.bias.abs().max().item()
# endregion: draw

source = inspect.getsource(nn.Linear.reset_parameters).splitlines()
print(json.dumps({
    "gain": gain,
    "weight_bound": weight_bound,
    "bias_bound": bias_bound,
    "weight_within_bound": w_max <= weight_bound,
    "bias_within_bound": b_max <= bias_bound,
    "weight_max_abs": w_max,
    "bias_max_abs": b_max,
    "reset_parameters": [ln.strip() for ln in source if "init." in ln or "bound =" in ln],
}, indent=1))
