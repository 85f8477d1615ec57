"""The torch → burn map, nn module rows: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-3-nn/<topic>.yaml).

Every module gets the same weights as on the burn side, set by hand in PyTorch's layout;
element k of a tensor with phase p is 0.5·sin(k + 1 + p), computed in f64 and rounded to f32
once. The input has phase 0, weights and biases other phases, and backward rows use
L = sum(y · G) with G of phase 50, so that dx and dw are not all ones.
"""
import json
import math

import torch
import torch.nn.functional as F
from torch import nn

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
    # Overwrite a parameter with the deterministic numbers, in PyTorch's own layout.
    with torch.no_grad():
        p.copy_(data(*p.shape, phase=phase))


def backward(y, *leaves):
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return [flat(t.grad) for t in leaves]


def run(m, x):
    """Forward and backward: y, dx, dw (and db when the module has a bias)."""
    x = x.clone().requires_grad_(True)
    y = m(x)
    out = {"y": flat(y), "shape": list(y.shape)}
    leaves = [x, m.weight] + ([m.bias] if getattr(m, "bias", None) is not None else [])
    grads = backward(y, *leaves)
    out["dx"], out["dw"] = grads[0], grads[1]
    if len(grads) > 2:
        out["db"] = grads[2]
    return out


def weights(m):
    # Every parameter, phase 10, 20, 30, ... in named_parameters() order.
    for i, (_, p) in enumerate(m.named_parameters()):
        setp(p, 10.0 * (i + 1))
    return m
