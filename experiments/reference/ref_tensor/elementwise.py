"""逐元素运算：ref-1-tensor/elementwise.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def add_broadcast():
    return out(data(3, 1) + data(1, 4))


@row
def add_rank():
    return out(data(3, 4) + data(4))


@row
def arith_scalar():
    return out((data(3, 4) - 1) * 3 / 2)


@row
def pow_int():
    return out(data(3, 4).pow(3))


@row
def pow_float():
    return out(data(3, 4).abs().pow(0.5))


@row
def pow_neg_base():
    # A negative base to a float power that is an integer: torch gives the real result.
    return out(torch.tensor([-0.5, -2.0, 3.0]).pow(3.0))


@row
def sqrt():
    return out(data(3, 4).abs().sqrt())


@row
def exp():
    return out(data(3, 4).exp())


@row
def log():
    return out(data(3, 4).abs().log())


@row
def log1p():
    return out(data(3, 4).log1p())


@row
def abs():
    return out(data(3, 4).abs())


@row
def neg():
    return out(-data(3, 4))


@row
def sign():
    return out(torch.sign(torch.tensor([-0.5, 0.0, 2.0, -3.0])))


@row
def clamp():
    return out(data(3, 4).clamp(-0.2, 0.3))


@row
def floor():
    return out(torch.tensor(HALVES).floor())


@row
def ceil():
    return out(torch.tensor(HALVES).ceil())


@row
def round():
    return out(torch.tensor(HALVES).round())


@row
def trunc():
    return out(torch.tensor(HALVES).trunc())


@row
def remainder():
    return out(torch.remainder(data(3, 4), 0.3))


@row
def remainder_neg():
    return out(torch.remainder(data(3, 4), -0.3))


@row
def fmod():
    return out(torch.fmod(data(3, 4), 0.3))


@row
def reciprocal():
    return out(data(3, 4).reciprocal())


@row
def sin_cos():
    x = data(3, 4)
    return {"sin": vals(x.sin()), "cos": vals(x.cos())}


@row
def tanh():
    return out(data(3, 4).tanh())


@row
def erf():
    return out(torch.erf(data(3, 4)))
