"""比较：ref-1-tensor/comparison.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


WITH_NAN = [0.3, float("nan"), 0.9, -0.2]


def pair():
    a = data(2, 4)
    b = a.clone()
    b[0, 1] = 0.0
    b[1, 2] = 1.0
    return a, b


@row
def eq():
    a, b = pair()
    return out(a.eq(b))


@row
def ne():
    a, b = pair()
    return out(a.ne(b))


@row
def gt():
    a, b = pair()
    return out(a.gt(b))


@row
def ge():
    a, b = pair()
    return out(a.ge(b))


@row
def lt():
    a, b = pair()
    return out(a.lt(b))


@row
def le():
    a, b = pair()
    return out(a.le(b))


@row
def gt_scalar():
    return out(data(3, 4) > 0)


@row
def isnan():
    return out(torch.tensor([1.0, float("nan"), float("inf"), -float("inf")]).isnan())


@row
def isinf():
    return out(torch.tensor([1.0, float("nan"), float("inf"), -float("inf")]).isinf())


@row
def any_all():
    m = data(3, 4) > 0
    return {"any": bool(m.any()), "all": bool(m.all())}


@row
def any_dim():
    return out((data(3, 4) > 0.4).any(dim=1, keepdim=True))


@row
def maximum():
    return out(torch.maximum(data(3, 4), data(3, 4).flip(0)))


@row
def minimum():
    return out(torch.minimum(data(3, 4), data(3, 4).flip(0)))


@row
def maximum_nan():
    return out(torch.maximum(torch.tensor(WITH_NAN), torch.zeros(4)))


@row
def max_nan():
    return {"max": num(torch.tensor(WITH_NAN).max())}


@row
def min_nan():
    return {"min": num(torch.tensor(WITH_NAN).min())}


@row
def argmax_nan():
    return {"argmax": int(torch.tensor(WITH_NAN).argmax())}
