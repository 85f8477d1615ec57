"""BatchNorm1d over [N, C] = [4, 3]: three training forwards, then inference on a fourth batch.

One script for the p-batchnorm-* experiments; each manifest compares its own fields:
  trained    (a) running statistics after training, and the eval output
  reference  (b) a copy taken before training, evaluated afterwards
  read, checkpoint, eval_in_place   (c) the statistics as read, saved and used right after training
  history    the running statistics after each training step
  batch_var  each training batch's variance, biased (/n) and unbiased (/(n-1))
  formula    the update and the training-mode output checked against their formulas
Only forward passes: the running statistics do not depend on gamma and beta.
"""
import copy
import json
import math

import torch
from torch import nn

N, C, STEPS = 4, 3, 3
MOMENTUM, EPS = 0.1, 1e-5


def batch(t):
    # Element (b, c) of batch t: (1 + c)·sin(1.3·(12t + 3b + c + 1)) + 0.5·c, computed in f64
    # and rounded to f32 once by torch.tensor.
    return torch.tensor([[(1 + c) * math.sin(1.3 * (12 * t + 3 * b + c + 1)) + 0.5 * c
                          for c in range(C)] for b in range(N)])


train = [batch(t) for t in range(STEPS)]
test = batch(STEPS)


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def stats(bn):
    return {"running_mean": nums(bn.running_mean), "running_var": nums(bn.running_var)}


def new_bn():
    return nn.BatchNorm1d(C, eps=EPS, momentum=MOMENTUM)


# (a) Train, then evaluate.
# region: var
model = new_bn()  # a new module is in training mode
for x in train:
    model(x)  # updates running_mean and running_var
model.eval()
with torch.no_grad():
    out = model(test)
# endregion: var
trained = dict(stats(model), out=nums(out))

# The same training, step by step.
model = new_bn()
history = {"running_mean": [], "running_var": []}
for x in train:
    model(x)
    for k, v in stats(model).items():
        history[k].append(v)
batch_var = {"biased": [nums(x.var(dim=0, unbiased=False)) for x in train],
             "unbiased": [nums(x.var(dim=0, unbiased=True)) for x in train]}
# The first update, from running_var = 1, against (1 - momentum) + momentum * unbiased variance;
# and the training-mode output, against normalising with the biased variance.
step1_err = (torch.tensor(history["running_var"][0])
             - ((1 - MOMENTUM) + MOMENTUM * train[0].var(dim=0, unbiased=True))).abs().max()
x0 = train[0]
with torch.no_grad():
    train_out = new_bn()(x0)
    by_hand = (x0 - x0.mean(dim=0)) / torch.sqrt(x0.var(dim=0, unbiased=False) + EPS)
default = nn.BatchNorm1d(C)
formula = {"step1_matches_unbiased": bool(step1_err < 1e-6),
           "train_out_uses_biased": bool((train_out - by_hand).abs().max() < 1e-6),
           "torch_defaults": {"momentum": default.momentum, "epsilon": default.eps}}

# (b) Keep the untrained model to compare against, train the other one.
# region: clone
model = new_bn()
reference = copy.deepcopy(model)  # an independent copy
for x in train:
    model(x)
reference.eval()
with torch.no_grad():
    reference_out = reference(test)
# endregion: clone
reference = dict(stats(reference), out=nums(reference_out))

# (c) Right after training: log the statistics, save a checkpoint, evaluate in place.
# region: stale
model = new_bn()
for x in train:
    model(x)
read = stats(model)  # print(model.running_mean)
state = copy.deepcopy(model.state_dict())  # torch.save(model.state_dict(), ...)
restored = new_bn()
restored.load_state_dict(state)
restored.eval()
model.eval()
with torch.no_grad():
    restored_out = restored(test)
    eval_out = model(test)
# endregion: stale

print(json.dumps({
    "config": {"batch": N, "channels": C, "steps": STEPS, "momentum": MOMENTUM, "epsilon": EPS},
    "trained": trained,
    "history": history,
    "batch_var": batch_var,
    "formula": formula,
    "reference": reference,
    "read": read,
    "checkpoint": dict(stats(restored), out=nums(restored_out)),
    "eval_in_place": {"out": nums(eval_out)},
}, indent=1))
