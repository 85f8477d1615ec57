"""Cross-entropy and MSE with each reduction, on fixed numbers.

Prints the same JSON structure as crates/l03-loss (plus the shapes, which differ).
"""
import json
import math

import torch
from torch import nn

B, C = 4, 3


def grid(rows, cols, f, scale):
    # Element k (1-based, row-major) is scale·f(k), in f64, rounded to f32 once.
    return torch.tensor([[scale * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)])


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


logits = grid(B, C, math.sin, 2.0)
y = torch.tensor([2, 0, 1, 2])
pred = grid(B, C, math.sin, 0.5)
target = grid(B, C, math.cos, 0.5)

# region: ce
ce_mean = nn.CrossEntropyLoss()(logits, y)  # reduction="mean" by default
ce_sum = nn.CrossEntropyLoss(reduction="sum")(logits, y)
ce_none = nn.CrossEntropyLoss(reduction="none")(logits, y)
# endregion: ce

# region: mse
mse_mean = nn.MSELoss()(pred, target)  # reduction="mean" by default
mse_sum = nn.MSELoss(reduction="sum")(pred, target)
mse_none = nn.MSELoss(reduction="none")(pred, target)
# endregion: mse

# region: options
ce_smooth = nn.CrossEntropyLoss(label_smoothing=0.1)(logits, y)
ce_weighted = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits, y)
# endregion: options

print(json.dumps({
    "ce": {"mean": nums(ce_mean), "sum": nums(ce_sum), "none": nums(ce_none)},
    "mse": {"mean": nums(mse_mean), "sum": nums(mse_sum), "none": nums(mse_none)},
    "ce_options": {"smoothing": nums(ce_smooth), "weighted": nums(ce_weighted)},
    "shape": {"ce_mean": list(ce_mean.shape), "ce_none": list(ce_none.shape),
              "mse_mean": list(mse_mean.shape), "mse_none": list(mse_none.shape)},
}, indent=1))
