import json

import torch

# region: habit
pos = torch.arange(-6, 7)        # token positions relative to a centre
rel = pos                        # int64
width = 4
bucket = rel // width            # which bucket of width 4 each position falls in
offset = rel % width             # position inside the bucket, always 0..width-1
# endregion: habit

# region: check
identity = bool(((bucket * width + offset) == rel).all())
# endregion: check

print(json.dumps({"rel": rel.tolist(), "bucket": bucket.tolist(), "offset": offset.tolist(),
                  "identity": identity, "width": width}))
