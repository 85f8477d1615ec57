"""矩阵乘：ref-1-tensor/matmul.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def matmul_2d():
    return out(data(3, 4) @ data(4, 2))


@row
def bmm():
    return out(torch.bmm(data(2, 3, 4), data(2, 4, 5)))


@row
def matmul_bcast():
    return out(data(2, 3, 4) @ data(1, 4, 5))


@row
def matmul_3d_2d():
    return out(data(2, 3, 4) @ data(4, 5))


@row
def dot():
    return {"v": float(torch.dot(data(4), data(4) * 2))}
