"""Adding a bias vector [C] to a batch [B, C] in PyTorch: broadcasting aligns the ranks."""
import json

import torch

B, C = 2, 3
x = torch.tensor([[0.1 * (i * C + j + 1) - 0.5 for j in range(C)] for i in range(B)],
                 dtype=torch.float32)
bias = torch.tensor([0.01 * (j + 1) for j in range(C)], dtype=torch.float32)

# region: habit
y = x + bias          # [B, C] + [C] -> [B, C]
# endregion: habit

print(json.dumps({"y": y.flatten().tolist(), "shape": list(y.shape)}))
