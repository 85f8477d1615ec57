"""The torch → burn map, rows of modules, initialisers, schedulers, data utilities and
training-loop APIs that real training scripts call: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-8-modules/<topic>.yaml).

Every tensor is deterministic: element k of a tensor with phase p is 0.5·sin(k + 1 + p),
computed in f64 and rounded to f32 once (the same numbers as crates/ref-modules). Module
weights are set by hand in PyTorch's layout; backward rows use L = sum(y · G) with G of phase
50, so that dx and dw are not all ones. Rows about random draws compare what does not depend
on the generator (shapes, bounds, moments, index sets).
"""
import contextlib
import io
import json
import math
import os
import tempfile

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import (ConcatDataset, DataLoader, Dataset, Subset, TensorDataset,
                              WeightedRandomSampler, random_split)

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def flat(t):
    t = t.detach()
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [float(x) for x in t.flatten().tolist()]


def setp(p, phase):
    with torch.no_grad():
        p.copy_(data(*p.shape, phase=phase))


def backward(y):
    (y * data(*y.shape, phase=50.0)).sum().backward()


def leaf(t):
    return t.clone().requires_grad_(True)


def run(m, x):
    """Forward and backward of a module with weight (and bias): y, dx, dw, db."""
    x = leaf(x)
    y = m(x)
    backward(y)
    out = {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}
    if getattr(m, "weight", None) is not None:
        out["dw"] = flat(m.weight.grad)
    if getattr(m, "bias", None) is not None:
        out["db"] = flat(m.bias.grad)
    return out


def regression():
    return data(4, 4) * 2, data(4, 3, phase=60.0)


def small_linear():
    m = nn.Linear(4, 3)
    setp(m.weight, 10.0)
    setp(m.bias, 20.0)
    return m
