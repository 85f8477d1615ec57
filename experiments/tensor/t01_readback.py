"""Reading PyTorch tensors back to the host: tolist, numpy, item."""
import json

import torch

# region: readback
t = torch.tensor([[1.5, -2.0], [3.25, 4.0]])
nested = t.tolist()                 # nested Python lists
flat = t.flatten().tolist()
shape = list(t.shape)
total = t.sum().item()              # one element -> a Python float
idx = torch.tensor([3, -1, 4])
idx_list = idx.tolist()             # Python ints
first = idx[0].item()
# endregion: readback

# region: errors
try:
    t.item()                        # four elements
    item_error = None
except RuntimeError as e:
    item_error = f"{type(e).__name__}: {e}"
# endregion: errors

print(json.dumps({
    "nested": nested, "flat": flat, "shape": shape, "total": total,
    "idx": idx_list, "first": first, "dtype": str(t.dtype), "idx_dtype": str(idx.dtype),
    "item_error": item_error,
}))
