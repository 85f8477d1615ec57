"""torch.set_default_dtype(torch.float64) called after a tensor already exists: tensors created
afterwards are float64, the earlier one stays float32."""
import json

import torch

# region: main
pre = torch.ones(4)                     # created first: float32
torch.set_default_dtype(torch.float64)  # from here on, new float tensors are float64
a = torch.full((4,), 0.1)
b = a * 3 - 0.3                         # 0.1 * 3 - 0.3: zero only in float32
# endregion: main

name = lambda t: str(t.dtype).removeprefix("torch.")
print(json.dumps({
    "pre_dtype": name(pre),
    "dtype": name(a),
    "b": [float(v) for v in b.tolist()],
}, indent=1))
