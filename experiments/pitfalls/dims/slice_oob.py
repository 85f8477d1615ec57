"""Past the end in PyTorch: a range is cut down to the rows that exist; an integer index raises IndexError."""
import json

import torch

B, T = 4, 5
x = torch.ones(B, T)

# region: range
rows = x[2:9]     # a range past the end: Python's slicing clamps it to 2:4
# endregion: range
print(json.dumps({"range_shape": list(rows.shape)}), flush=True)

# region: habit
row = x[5]        # only rows 0..3 exist
# endregion: habit
print(row.shape)
