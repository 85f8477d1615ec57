"""Integer division and remainder in PyTorch, on negative and positive operands."""
import json

import torch

# region: cases
a = torch.tensor([7, -7, 7, -7, 6, -6, 1, -1])
b = torch.tensor([2, 2, -2, -2, 3, 3, 4, 4])
# endregion: cases

# region: ops
floor_div = a // b                                  # floor
trunc_div = torch.div(a, b, rounding_mode="trunc")  # toward zero
floor_div2 = torch.div(a, b, rounding_mode="floor")
rem = a % b                                         # sign of the divisor
fmod = torch.fmod(a, b)                             # sign of the dividend
true_div = a / b                                    # float result
# endregion: ops

# region: scalar
s_trunc = torch.div(a, 2, rounding_mode="trunc")
s_floor = a // 2
s_rem = a % 2
s_rem_neg = a % -2
# endregion: scalar

print(json.dumps({
    "a": a.tolist(), "b": b.tolist(), "n": len(a),
    "floor_div": floor_div.tolist(), "trunc_div": trunc_div.tolist(),
    "rem": rem.tolist(), "fmod": fmod.tolist(), "true_div": true_div.tolist(),
    "scalar": {"trunc_div": s_trunc.tolist(), "floor_div": s_floor.tolist(),
               "rem": s_rem.tolist(), "rem_neg": s_rem_neg.tolist()},
    "floor_equals_rounding_floor": bool((floor_div == floor_div2).all()),
    "floor_equals_trunc": bool((floor_div == trunc_div).all()),
    "dtypes": {"floor_div": str(floor_div.dtype), "true_div": str(true_div.dtype)},
}))
