"""矩阵范数：ref-6-linalg/matrix_norms.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
