"""backward() on an output computed under torch.no_grad()."""
import math

import torch
from torch import nn

model = nn.Linear(4, 3)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5 * math.sin(r * 4 + c + 1) for c in range(4)] for r in range(3)]))
    model.bias.zero_()
x = torch.tensor([[0.1 * (r * 4 + c + 1) - 0.5 for c in range(4)] for r in range(2)])

# region: backward
model.eval()
with torch.no_grad():
    out = model(x)
loss = out.sum()
loss.backward()  # raises: nothing was recorded
# endregion: backward
