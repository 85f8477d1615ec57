"""Out-of-range select and gather in PyTorch on the CPU: both raise; in-range ids work."""
import json

import torch

# 4 rows (a vocabulary of 4), 3 columns; row r holds 10(r+1) + c, so no value is 0.
table = torch.tensor([[float(10 * (r + 1) + c) for c in range(3)] for r in range(4)])
# 2 samples, 4 classes: sample i, class j holds 100(i+1) + j.
scores = torch.tensor([[float(100 * (i + 1) + j) for j in range(4)] for i in range(2)])


def attempt(fn):
    try:
        return {"values": fn().tolist()}
    except Exception as e:  # noqa: BLE001 - the type and message are the output
        return {"error": type(e).__name__, "message": str(e)}


# region: habit
ids = torch.tensor([0, 3, 4])                  # 4 is one past the end
target = torch.tensor([[1], [4]])              # class 4 does not exist
bad_select = attempt(lambda: table.index_select(0, ids))
bad_gather = attempt(lambda: scores.gather(1, target))
# endregion: habit

# region: good
ok_rows = table.index_select(0, torch.tensor([0, 3, 2]))
ok_picked = scores.gather(1, torch.tensor([[1], [3]]))
# endregion: good

# region: mask
# Where an unknown id must map to a zero row on purpose: clamp, then mask.
n = table.shape[0]
valid = (ids >= 0) & (ids < n)
masked = table.index_select(0, ids.clamp(0, n - 1)) * valid.float().unsqueeze(1)
# endregion: mask

print(json.dumps({
    "device": str(table.device),
    "bad_select": bad_select,
    "bad_gather": bad_gather,
    "select_rejected": "error" in bad_select,
    "gather_rejected": "error" in bad_gather,
    "ok_rows": ok_rows.tolist(),
    "ok_picked": ok_picked.tolist(),
    "masked_rows": masked.tolist(),
    "valid": valid.int().tolist(),
}))
