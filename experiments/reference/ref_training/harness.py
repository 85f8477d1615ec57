"""The torch → burn map, training rows: optimizers, their defaults, lr schedulers, init,
save/load and data loading: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-4-training/<topic>.yaml).

Optimizer rows: nn.Linear(4, 3) with weight element k (1-based, [out, in] order) 0.5·sin(k) and
bias element o 0.5·cos(o + 1); at step t (1-based) the gradients are set directly: weight
0.1·cos(0.7·k + t), bias 0.1·sin(o + 1 + 2t). Every value in f64, rounded to f32 once; the same
numbers as crates/ref-training. Rows about random draws compare bounds and moments, not draws.
"""
import io
import dataclasses
import json
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

ROWS = {}
IN, OUT, STEPS = 4, 3, 3


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def make_linear():
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.5 * math.cos(o + 1) for o in range(OUT)]))
    return lin


def set_grads(lin, t):
    lin.weight.grad = torch.tensor([[0.1 * math.cos(0.7 * (r * IN + c + 1) + t) for c in range(IN)]
                                    for r in range(OUT)])
    lin.bias.grad = torch.tensor([0.1 * math.sin(o + 1 + 2 * t) for o in range(OUT)])


# Random draws differ between the generators: compare bounds and moments of many draws.

FAN_OUT, FAN_IN = 1024, 64  # a weight of shape [out, in], 65536 draws


def weight():
    return torch.empty(FAN_OUT, FAN_IN)


N, BATCH, SEED = 10, 4, 3
