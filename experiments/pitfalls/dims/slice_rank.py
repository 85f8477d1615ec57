"""Taking the last time step in PyTorch: an integer index drops that dimension."""
import json

import torch

B, T = 4, 5
x = torch.tensor([[float(10 * i + t) for t in range(T)] for i in range(B)])
target = torch.tensor([float(10 * i + T - 1) for i in range(B)])   # [B]

# region: habit
last = x[:, -1]                  # [B]
err = (last - target).abs().sum().item()
# endregion: habit

print(json.dumps({
    "last_shape": list(last.shape),
    "diff_shape": list((last - target).shape),
    "err": err,
}))
