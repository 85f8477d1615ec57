"""外积与矩阵乘向量：ref-6-linalg/outer_mv.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def outer():
    return out(torch.outer(data(3), data(4)))


@row
def matvec():
    return out(data(3, 4) @ data(4))
