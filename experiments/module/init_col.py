"""nn.Linear(256, 4)'s default initialisation: the bound 1/√in_features and the draws within it.

Prints the "row" part of crates/m02-init-col's JSON: PyTorch has nothing like burn's
LinearLayout::Col, so only burn's default (Row) layout has a counterpart here.
"""
import json
import math

import torch
from torch import nn
from torch.nn import init

D_IN, D_OUT = 256, 4

# region: draw
torch.manual_seed(0)
lin = nn.Linear(D_IN, D_OUT)
bound = init.calculate_gain("leaky_relu", math.sqrt(5)) * math.sqrt(3.0 / D_IN)  # = 1/√256
w_max = lin.weight.abs().max().item()
b_max = lin.bias.abs().max().item()
# endregion: draw

print(json.dumps({
    "row": {
        "bound": bound,
        "weight_max_abs": w_max,
        "bias_max_abs": b_max,
        "weight_within_bound": w_max <= bound,
        "bias_within_bound": b_max <= bound,
        "weight_shape": list(lin.weight.shape),
    },
    "inv_sqrt_in": 1 / math.sqrt(D_IN),
}, indent=1))
