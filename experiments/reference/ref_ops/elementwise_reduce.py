"""逐元素与归约：ref-7-ops/elementwise_reduce.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def lerp():
    a, b = leaf(data(3, 4)), leaf(coef(3, 4))
    return backward(torch.lerp(a, b, 0.3), dx=a, grad_b=b)


@row
def var_mean():
    var, mean = torch.var_mean(data(3, 4), dim=1, keepdim=True)
    return {"var": vals(var), "mean": vals(mean), "shape": list(var.shape)}


SPECIAL = [0.5, float("nan"), float("inf"), -1.5, float("-inf"), 0.0]


@row
def nan_to_num():
    return out(torch.nan_to_num(torch.tensor(SPECIAL)))


@row
def nan_to_num_args():
    return out(torch.nan_to_num(torch.tensor(SPECIAL), nan=0.0, posinf=1.0, neginf=-1.0))


def close_pair():
    a = torch.tensor([1.0, 2.0, float("inf"), float("nan"), 1e-9, 100.0])
    b = torch.tensor([1.0 + 1e-6, 2.001, float("inf"), float("nan"), 0.0, 100.0005])
    return a, b


@row
def isclose():
    a, b = close_pair()
    return out(torch.isclose(a, b))


@row
def allclose():
    a, b = data(2, 3), data(2, 3) + 5e-4
    return {"default": torch.allclose(a, b), "atol_1e_3": torch.allclose(a, b, atol=1e-3)}


BOUNDS = [-0.25, 0.0, 0.25]
POINTS = [-0.5, -0.25, -0.1, 0.0, 0.1, 0.25, 0.4]


@row
def bucketize():
    return out(torch.bucketize(torch.tensor(POINTS), torch.tensor(BOUNDS)))


@row
def searchsorted():
    return out(torch.searchsorted(torch.tensor(BOUNDS), torch.tensor(POINTS)))


@row
def searchsorted_right():
    return out(torch.searchsorted(torch.tensor(BOUNDS), torch.tensor(POINTS), right=True))


@row
def clamp_min():
    return out(torch.clamp_min(data(3, 4), 0.1))


@row
def where_scalar():
    x = data(3, 4)
    return out(torch.where(x > 0, x, 0.0))


@row
def cummax():
    return out(torch.cummax(data(3, 4), dim=1).values)


@row
def argsort():
    return out(torch.argsort(data(3, 4), dim=1, descending=True))


@row
def logical_ops():
    a, b = data(3, 4) > 0, coef(3, 4) > 0
    return {"and": vals(torch.logical_and(a, b)), "or": vals(torch.logical_or(a, b)),
            "not": vals(torch.logical_not(a)), "shape": list(a.shape)}


@row
def square():
    return out(torch.square(data(3, 4)))


@row
def rsqrt():
    return out(torch.rsqrt(data(3, 4).abs() + 0.1))
