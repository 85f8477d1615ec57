"""The torch → burn map, autograd, activation and loss rows: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-2-functional/<topic>.yaml).

Inputs are the same numbers on both sides, computed in f64 and rounded to f32 once:
- autograd rows: X[k] = 0.5·sin(k + 1), C[k] = 0.5·cos(k + 1);
- activation rows: the twelve points ACT_X (exact in f32, none of them a kink, out to ±25,
  past softplus's threshold); "y" is f(x), "dy" is d(sum y)/dx, for softmax and
  log_softmax d(sum y·C)/dx on [3, 4]; the kink rows use the six points KINK_X only, and the
  rows that fix them ("..._kink_fix") both sets, with the new keys "y" and "dx";
- loss rows: logits L[k] = 2·sin(k + 1) on [4, 3], class targets [2, 0, 1, 2], regression
  prediction 2·sin(k + 1) against target 0.5·cos(k + 1); "loss" is the value, "grad" the
  gradient with respect to the logits (or the prediction).
"""
import json
import math
import warnings

import torch
import torch.nn.functional as F
from torch import nn

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def grid(f, *shape):
    n = math.prod(shape)
    return torch.tensor([f(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def data(*shape):
    return grid(lambda k: 0.5 * math.sin(k), *shape)


def coef(*shape):
    return grid(lambda k: 0.5 * math.cos(k), *shape)


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def leaf(t):
    return t.clone().requires_grad_()


def linear():
    lin = nn.Linear(3, 2)
    with torch.no_grad():
        lin.weight.copy_(data(2, 3))
        lin.bias.copy_(torch.tensor([0.0, 0.01]))
    return lin


ACT_X = [-25.0, -5.0, -2.5, -1.5, -0.75, -0.25, 0.25, 0.75, 1.5, 2.5, 5.0, 25.0]


def act(f, points=ACT_X):
    x = torch.tensor(points, requires_grad=True)
    y = f(x)
    y.sum().backward()
    return {"y": nums(y), "dy": nums(x.grad)}


B, C = 4, 3
