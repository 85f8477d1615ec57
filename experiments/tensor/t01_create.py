"""Creating tensors in PyTorch: from nested lists, zeros, ones, arange; the default dtypes."""
import json

import torch


def show(t):
    return {"values": t.flatten().tolist(), "shape": list(t.shape)}


# region: from-data
a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # nested lists
ints = torch.tensor([1, -2, 3])                        # integer literals
whole = torch.tensor([1, 2, 3], dtype=torch.float32)   # ints, stored as floats
# endregion: from-data

# region: fill
z = torch.zeros(2, 3)
o = torch.ones(2, 3)
zi = torch.zeros(2, 3, dtype=torch.int64)
r = torch.arange(5)                   # 0, 1, 2, 3, 4
r3 = torch.arange(0, 10, 3)           # step 3
rf = torch.arange(5).float()
# endregion: fill

# region: dtype
i64 = torch.tensor([1, -2, 3], dtype=torch.int64)   # explicit
# endregion: dtype

tensors = {"a": a, "ints": ints, "whole": whole, "z": z, "o": o, "zi": zi,
           "r": r, "r3": r3, "rf": rf, "i64": i64}
print(json.dumps({
    "tensors": {k: show(t) for k, t in tensors.items()},
    "dtypes": {k: str(t.dtype) for k, t in tensors.items()},
}))
