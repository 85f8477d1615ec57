"""Casting between int and float in PyTorch: truncation toward zero, rounding, precision."""
import json

import torch

# region: to-int
f = torch.tensor([-2.7, -2.5, -0.5, 0.5, 2.5, 2.7])
to_int = f.int()                  # int32, toward zero
to_long = f.long()                # int64, toward zero
floored = f.floor().long()
rounded = f.round().long()        # ties to even
# endregion: to-int

# region: to-float
i = torch.tensor([16_777_217, -16_777_217, 3])  # 2**24 + 1 has no f32
to_float = i.float()
to_double = i.double()
# endregion: to-float

# region: out-of-range
wild = torch.tensor([3.0e9, -3.0e9, float("nan"), float("inf")])
wild_int = wild.int()
# endregion: out-of-range

print(json.dumps({
    "f": f.tolist(), "n": len(f), "n_i": len(i), "n_wild": len(wild),
    "to_int": to_int.tolist(), "to_long": to_long.tolist(),
    "floored": floored.tolist(), "rounded": rounded.tolist(),
    "i": i.tolist(), "to_float": to_float.tolist(), "to_double": to_double.tolist(),
    "wild": [str(v) for v in wild.tolist()], "wild_int": wild_int.tolist(),
    "dtypes": {"to_int": str(to_int.dtype), "to_long": str(to_long.dtype),
               "to_float": str(to_float.dtype)},
}))
