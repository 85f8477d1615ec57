"""An int tensor with a float scalar in PyTorch: the result is promoted to float32."""
import json

import torch

# region: naive
x = torch.tensor([-3, -2, -1, 0, 1, 2, 3])
plus_half = x + 0.5
times_half = x * 0.5
times_1_5 = x * 1.5
minus_2_7 = x - 2.7
# endregion: naive

results = {"plus_half": plus_half, "times_half": times_half,
           "times_1_5": times_1_5, "minus_2_7": minus_2_7}
print(json.dumps({
    "x": x.tolist(), "n": len(x),
    "float_result": {k: t.tolist() for k, t in results.items()},
    "dtypes": {"x": str(x.dtype), "result": str(plus_half.dtype)},
}))
