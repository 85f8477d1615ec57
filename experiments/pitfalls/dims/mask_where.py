"""Leaky ReLU with torch.where: take x where the condition holds, 0.1 * x elsewhere."""
import json

import torch

x = torch.tensor([0.1 * k - 0.5 for k in range(1, 9)], dtype=torch.float32)

# region: habit
y = torch.where(x > 0, x, 0.1 * x)
# endregion: habit

print(json.dumps({"y": y.tolist()}))
