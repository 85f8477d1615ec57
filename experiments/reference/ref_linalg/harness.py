"""The torch → burn map, linear-algebra rows: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-6-linalg/<topic>.yaml).

Most rows return {"v": the values, flattened, "shape": the shape}; decompositions return each
factor under its name plus all the shapes. Inputs are the same numbers on both sides, computed
in f64 and rounded to f32 once: data: X[k] = 0.5·sin(k + 1); rough: X[k] = 0.5·sin((k + 1)²),
for the matrices that must be invertible (consecutive sines make any matrix of three or more
columns singular: sin(k + 2) = 2·cos(1)·sin(k + 1) − sin(k)). NaN and ±inf travel as the
strings "nan", "inf", "-inf".
"""
import json
import math

import torch
import torch.nn.functional as F

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def rough(*shape):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin((k + 1) ** 2) for k in range(n)], dtype=torch.float32).reshape(shape)


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def vals(t):
    return [num(x) for x in t.double().flatten().tolist()]


def out(t):
    return {"v": vals(t), "shape": list(t.shape)}
