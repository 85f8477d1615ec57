import json

import torch

a = torch.tensor([0.1, 0.2, 0.3, 1.0])
b = torch.tensor([0.1, 0.2, 0.3, 1.0], dtype=torch.float64)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
w = torch.tensor([[0.5, 0.0], [0.0, 0.5]], dtype=torch.float64)

# region: fix
c = a + b                      # promotion: float32 + float64 -> float64
y = x.to(torch.float64) @ w    # matmul needs the cast by hand in PyTorch too
# endregion: fix

print(json.dumps({"add": {"dtype": str(c.dtype), "values": c.tolist()},
                  "matmul": {"dtype": str(y.dtype), "values": y.flatten().tolist()}}))
