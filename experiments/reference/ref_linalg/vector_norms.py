"""向量范数：ref-6-linalg/vector_norms.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
