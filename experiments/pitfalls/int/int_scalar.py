import json

import torch

# region: habit
frame = torch.arange(6)   # frame indices, int64
t = frame * 0.5           # timestamps in seconds at 2 frames per second
mid = frame + 0.5         # the middle of each frame
# endregion: habit

print(json.dumps({"frame": frame.tolist(), "t": t.tolist(), "mid": mid.tolist(),
                  "dtypes": {"frame": str(frame.dtype), "t": str(t.dtype)}}))
