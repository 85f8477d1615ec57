"""One million f32 values sin(k), computed in f64: torch's f32 sum and an f64 reference."""
import json

import torch

# region: sum
n = 1_000_000
v = torch.sin(torch.arange(n, dtype=torch.float64)).float()
result = {
    "sum": v.sum().item(),               # torch's own f32 reduction
    "f64_exact": v.double().sum().item(),  # the same f32 values, summed in f64
}
# endregion: sum
print(json.dumps(result))
