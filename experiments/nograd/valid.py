"""The A1 MLP (4→8→3) run twice on the same inputs: in training mode with autograd,
and under model.eval() + torch.no_grad(). Prints both logits and the autograd flags."""
import json
import math

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


def w(out, inp, f):
    return torch.tensor([[0.5 * f(r * inp + c + 1) for c in range(inp)] for r in range(out)])


model = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
with torch.no_grad():
    model[0].weight.copy_(w(HID, IN, math.sin))
    model[0].bias.copy_(torch.tensor([0.01 * o for o in range(HID)]))
    model[2].weight.copy_(w(OUT, HID, math.cos))
    model[2].bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
x = torch.tensor([[0.1 * (r * IN + c + 1) - 0.5 for c in range(IN)] for r in range(BATCH)])

# region: forward
model.train()
out_train = model(x)  # records a graph

model.eval()
with torch.no_grad():
    out_infer = model(x)  # records nothing
# endregion: forward

# region: flags
flags = {
    "param_requires_grad": model[0].weight.requires_grad,   # unchanged by eval/no_grad
    "train_out_requires_grad": out_train.requires_grad,
    "train_out_has_grad_fn": out_train.grad_fn is not None,
    "infer_out_requires_grad": out_infer.requires_grad,
    "infer_out_has_grad_fn": out_infer.grad_fn is not None,
}
# endregion: flags

print(json.dumps({
    "logits_train": out_train.detach().flatten().tolist(),
    "logits_infer": out_infer.flatten().tolist(),
    "max_abs_diff": (out_train.detach() - out_infer).abs().max().item(),
    "flags": flags,
}))
