"""Integer overflow in PyTorch: int64 by default; an int32 sum or prod is promoted to int64."""
import json

import torch

# region: input
big = torch.tensor([2_000_000_000, 2_000_000_000, 1])  # int64 by default
# endregion: input

# region: int64
sum64 = big.sum()
prod64 = torch.tensor([100_000, 100_000]).prod()
# endregion: int64

# region: int32
big32 = big.to(torch.int32)
add32 = big32 + big32                      # elementwise, stays int32
sum32 = big32.sum()                        # promoted to int64
prod32 = torch.tensor([100_000, 100_000], dtype=torch.int32).prod()
back = torch.tensor([2_000_000_000, 2_000_000_000, -2_000_000_000], dtype=torch.int32).sum()
# endregion: int32

print(json.dumps({
    "input": big.tolist(),
    "int64": {"sum": sum64.item(), "prod": prod64.item()},
    "int32_add": add32.tolist(),
    "int32_reduce": {"sum": sum32.item(), "prod": prod32.item(), "back_in_range": back.item()},
    "dtypes": {"input": str(big.dtype), "sum64": str(sum64.dtype), "add32": str(add32.dtype),
               "sum32": str(sum32.dtype), "prod32": str(prod32.dtype)},
    "limits": {"i32_max": torch.iinfo(torch.int32).max},
}))
