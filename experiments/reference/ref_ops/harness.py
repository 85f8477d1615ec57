"""The torch → burn map, the functional and tensor-op rows real training scripts call:
what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-7-ops/<topic>.yaml).

Inputs are the same numbers on both sides, computed in f64 and rounded to f32 once:
X[k] = 0.5·sin(k + 1) (data), C[k] = 0.5·cos(k + 1) (coef, also the weight G of the
gradient rows), W[k] = 0.5·sin(0.7·(k + 1) + 1) (wave). A gradient row returns the output
"y" and the gradient of sum(y·G) with respect to each input: "dx" for the main one, "dw",
"db", "grad_<name>" for the others. NaN and ±inf travel as "nan", "inf", "-inf".
"""
import json
import math
import warnings

import torch
import torch.nn.functional as F

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


def wave(*shape):
    return grid(lambda k: 0.5 * math.sin(0.7 * k + 1.0), *shape)


def leaf(t):
    return t.clone().requires_grad_()


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def vals(t):
    t = t.detach()
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [num(x) for x in t.double().flatten().tolist()]


def out(t, **more):
    return {"y": vals(t), "shape": list(t.shape), **more}


def backward(y, **inputs):
    """y, and the gradient of sum(y·G) with respect to each named input (G = coef)."""
    (y * coef(*y.shape)).sum().backward()
    return {"y": vals(y), "shape": list(y.shape), **{k: vals(v.grad) for k, v in inputs.items()}}
