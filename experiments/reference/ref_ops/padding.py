"""填充：ref-7-ops/padding.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def pad_constant():
    return out(F.pad(data(1, 2, 3), (1, 2, 0, 1), value=0.5))


@row
def pad_reflect():
    return out(F.pad(data(1, 1, 3, 4), (2, 2, 1, 1), mode="reflect"))


@row
def pad_replicate():
    return out(F.pad(data(1, 1, 3, 4), (1, 1, 2, 0), mode="replicate"))


@row
def pad_circular():
    return out(F.pad(data(1, 2, 5), (1, 2), mode="circular"))
