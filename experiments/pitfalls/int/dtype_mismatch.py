import json

import torch

# region: input
a = torch.tensor([0.1, 0.2, 0.3, 1.0])                       # float32, the default
b = torch.tensor([0.1, 0.2, 0.3, 1.0], dtype=torch.float64)  # float64
# endregion: input

# region: add
c = a + b  # type promotion: the result is float64
# endregion: add

# region: matmul
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
w = torch.tensor([[0.5, 0.0], [0.0, 0.5]], dtype=torch.float64)
try:
    y = x @ w
    matmul = {"raised": False, "dtype": str(y.dtype)}
except RuntimeError as e:
    matmul = {"raised": True, "error": str(e)}
# endregion: matmul

print(json.dumps({"dtypes": {"a": str(a.dtype), "b": str(b.dtype)},
                  "add": {"dtype": str(c.dtype), "values": c.tolist()},
                  "matmul": matmul}))
