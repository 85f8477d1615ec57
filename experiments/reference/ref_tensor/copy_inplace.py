"""复制与就地运算：ref-1-tensor/copy_inplace.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def clone():
    return out(data(2, 3).clone())


@row
def new_zeros():
    return out(data(2, 3).new_zeros(2, 5))


@row
def expand_as():
    return out(data(3, 1).expand_as(data(3, 4)))


@row
def add_inplace():
    x = data(2, 3)
    x.add_(data(2, 3) * 2.0)
    return out(x)


@row
def mul_inplace():
    x = data(2, 3)
    x.mul_(0.5)
    return out(x)


@row
def copy_inplace():
    x = data(2, 3)
    x.copy_(-data(2, 3))
    return out(x)
