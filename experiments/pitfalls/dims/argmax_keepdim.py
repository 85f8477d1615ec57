"""Accuracy from argmax in PyTorch: argmax(dim=1) drops the class dimension."""
import json
import math

import torch

B, C = 8, 3
# logits[i][j] = sin(i*C + j + 1), computed in f64 and rounded to f32 once
logits = torch.tensor(
    [[math.sin(i * C + j + 1) for j in range(C)] for i in range(B)], dtype=torch.float32
)
labels = torch.tensor([1, 2, 1, 2, 1, 0, 0, 1])

# region: habit
pred = logits.argmax(dim=1)                    # [B]
correct = pred == labels                        # [B]
accuracy = correct.float().mean().item()
# endregion: habit

print(json.dumps({
    "accuracy": accuracy,
    "pred": pred.tolist(),
    "pred_shape": list(pred.shape),
    "correct_shape": list(correct.shape),
}))
