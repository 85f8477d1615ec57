"""The torch → burn map, linear-algebra rows: one function per row of ref-6-linalg.yaml's table.

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


def factors(**ts):
    # A decomposition: each factor's values under its name, and all the shapes.
    return {**{k: vals(t) for k, t in ts.items()}, "shape": [list(t.shape) for t in ts.values()]}


# ---- 向量范数 ----
@row
def norm_l2():
    return {"v": float(torch.linalg.norm(data(3, 4)))}


@row
def norm_l1():
    return {"v": float(data(3, 4).norm(p=1))}


@row
def vector_norm():
    return out(torch.linalg.vector_norm(data(3, 4), dim=1, keepdim=True))


@row
def vector_norm_nokeepdim():
    return out(torch.linalg.vector_norm(data(3, 4), dim=1))


@row
def vector_norm_squeeze():
    return out(torch.linalg.vector_norm(data(3, 4), dim=1))


@row
def vector_norm_inf():
    return out(torch.linalg.vector_norm(data(3, 4), ord=float("inf"), dim=1, keepdim=True))


@row
def vector_norm_neg_inf():
    return out(torch.linalg.vector_norm(data(3, 4), ord=-float("inf"), dim=1, keepdim=True))


@row
def vector_norm_l0():
    x = data(3, 4)
    x = x.masked_fill(x.abs() < 0.2, 0.0)
    return out(torch.linalg.vector_norm(x, ord=0, dim=1, keepdim=True))


@row
def vector_norm_p3():
    return out(torch.linalg.vector_norm(data(3, 4), ord=3, dim=1, keepdim=True))


@row
def vector_norm_p4():
    return out(torch.linalg.vector_norm(data(3, 4), ord=4, dim=1, keepdim=True))


@row
def vector_norm_dims():
    return out(torch.linalg.vector_norm(data(2, 3, 4), dim=(1, 2), keepdim=True))


@row
def lp_norm():
    return out(data(3, 4).norm(p=3, dim=1, keepdim=True))


@row
def normalize():
    return out(F.normalize(data(3, 4), dim=1))


@row
def cosine_similarity():
    return out(F.cosine_similarity(data(3, 4), rough(3, 4), dim=1))


@row
def cosine_similarity_squeeze():
    return out(F.cosine_similarity(data(3, 4), rough(3, 4), dim=1))


# ---- 矩阵范数 ----
@row
def matrix_norm_fro():
    return out(torch.linalg.matrix_norm(rough(2, 3, 4)))


@row
def matrix_norm_1():
    return out(torch.linalg.matrix_norm(rough(2, 3, 4), ord=1))


@row
def matrix_norm_inf():
    return out(torch.linalg.matrix_norm(rough(2, 3, 4), ord=float("inf")))


@row
def matrix_norm_2():
    return out(torch.linalg.matrix_norm(rough(2, 3, 4), ord=2))


@row
def matrix_norm_nuc():
    return out(torch.linalg.matrix_norm(rough(2, 3, 4), ord="nuc"))


# ---- 对角与迹 ----
@row
def diag():
    return out(torch.diag(data(3, 4)))


@row
def diagonal_batch():
    return out(torch.linalg.diagonal(data(2, 3, 3)))


@row
def trace():
    return out(torch.trace(data(3, 4)))


@row
def trace_item():
    return {"v": torch.trace(data(3, 4)).item()}


# ---- 行列式与分解 ----
@row
def det():
    return out(torch.linalg.det(rough(2, 3, 3)))


@row
def det_4x4():
    return out(torch.linalg.det(rough(2, 4, 4)))


@row
def det_2d():
    torch.linalg.det(rough(3, 3))
    return {"panics": False}


@row
def det_2d_fix():
    return {"v": torch.linalg.det(rough(3, 3)).item()}


@row
def lu():
    p, l, u = torch.linalg.lu(rough(4, 4))
    return factors(p=p, l=l, u=u)


@row
def lu_tall():
    p, l, u = torch.linalg.lu(rough(4, 3))
    return factors(p=p, l=l, u=u)


@row
def qr():
    q, r = torch.linalg.qr(rough(4, 3))
    return factors(q=q, r=r)


@row
def qr_complete():
    q, r = torch.linalg.qr(rough(4, 3), mode="complete")
    return factors(q=q, r=r)


@row
def svd():
    u, s, vt = torch.linalg.svd(rough(4, 3), full_matrices=False)
    return factors(u=u, s=s, vt=vt)


@row
def svd_full():
    u, s, vt = torch.linalg.svd(rough(4, 3))
    return factors(u=u, s=s, vt=vt)


@row
def svdvals():
    return out(torch.linalg.svdvals(rough(4, 3)))


# ---- 外积与矩阵乘向量 ----
@row
def outer():
    return out(torch.outer(data(3), data(4)))


@row
def matvec():
    return out(data(3, 4) @ data(4))


print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
