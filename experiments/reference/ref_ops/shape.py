"""形状：ref-7-ops/shape.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def movedim():
    return out(torch.movedim(data(2, 3, 4), 1, -1))


@row
def unfold_dim():
    return out(data(2, 7).unfold(1, 3, 2))
