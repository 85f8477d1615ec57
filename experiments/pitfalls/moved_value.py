"""A residual connection in PyTorch: x is used twice, nothing is moved."""
import json

import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(4, 4)
x = torch.ones(2, 4)
# region: naive
y = layer(x) + x
# endregion: naive
print(json.dumps({"shape": list(y.shape)}))
