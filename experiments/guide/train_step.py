"""A1: a 4→8→3 MLP, cross-entropy, one SGD step (lr 0.1), on the CPU.

Prints the same JSON structure as crates/train-step.
"""
import json
import math

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


# region: weights
def weight(rows, cols, f):
    # Element k (1-based, [out, in] order) is 0.5·f(k),
    # a Python float (f64) rounded to f32 once by torch.tensor.
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)])


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)])


model = nn.ModuleDict({"fc1": nn.Linear(IN, HID), "fc2": nn.Linear(HID, OUT)})
with torch.no_grad():
    model.fc1.weight.copy_(weight(HID, IN, math.sin))
    model.fc1.bias.copy_(bias(HID))
    model.fc2.weight.copy_(weight(OUT, HID, math.cos))
    model.fc2.bias.copy_(bias(OUT))
# endregion: weights


def forward(x):
    return model.fc2(hidden(x))


def hidden(x):
    return torch.relu(model.fc1(x))


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def params():
    return {name: nums(p) for name, p in model.named_parameters()}


# region: step
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)])
x = x.reshape(BATCH, IN)
y = torch.tensor([b % OUT for b in range(BATCH)])
loss_fn = nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), lr=0.1)

logits = forward(x)
# endregion: step
logits.retain_grad()  # for the *_weight_terms below
# region: step
loss = loss_fn(logits, y)
loss.backward()
grads = {name: nums(p.grad) for name, p in model.named_parameters()}
# endregion: step
# Each sample's share of the weight gradients, taken before the update: for fc2,
# dL/dlogits[b, o] · hidden[b, j]; for fc1, dL/dpre[b, j] · x[b, i], where dL/dpre is
# dL/dlogits · W2 where the ReLU passed. The page explains the ulp count with them;
# burn has no such fields.
with torch.no_grad():
    terms = torch.einsum("bo,bj->boj", logits.grad, hidden(x))
    pre = model.fc1(x)
    g_pre = (logits.grad @ model.fc2.weight) * (pre > 0)
    terms1 = torch.einsum("bj,bi->bji", g_pre, x)
# region: step
optim.step()
with torch.no_grad():
    loss_after = loss_fn(forward(x), y)
# endregion: step

print(json.dumps({
    "fc1_weight_terms": [nums(t) for t in terms1],
    "fc2_weight_terms": [nums(t) for t in terms],
    "logits": nums(logits),
    "loss": nums(loss),
    "grads": grads,
    "params_after": params(),
    "loss_after": nums(loss_after),
}, indent=1))
