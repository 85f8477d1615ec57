"""对角与迹：ref-6-linalg/diag_trace.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
