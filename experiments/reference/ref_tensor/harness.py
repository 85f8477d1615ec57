"""The torch → burn map, tensor rows: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-1-tensor/<topic>.yaml).

Most rows return {"v": the values, flattened, "shape": the shape}; some add keys (a dtype, a
second output, a flag). The inputs are the same numbers on both sides: X[k] = 0.5·sin(k + 1),
computed in f64 and rounded to f32 once. NaN and ±inf travel as the strings "nan", "inf",
"-inf" (JSON has no such numbers; the crate writes the same strings).
"""
import json
import math

import numpy as np
import torch
import torch.nn.functional as F

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def dtype(t):
    return str(t.dtype).removeprefix("torch.")


def vals(t):
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [num(x) for x in t.double().flatten().tolist()]


def out(t, **more):
    return {"v": vals(t), "shape": list(t.shape), **more}


def parts(ts):
    # A list of tensors (split, chunk): every part's values and shape.
    return {"v": [vals(t) for t in ts], "shape": [list(t.shape) for t in ts]}


# Values on the .5 boundaries (and two that are not), for the rounding rows.
HALVES = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.7, 2.7]
