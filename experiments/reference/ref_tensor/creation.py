"""创建：ref-1-tensor/creation.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def from_data():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    return out(t, dtype=dtype(t))


@row
def zeros():
    t = torch.zeros(2, 3)
    return out(t, dtype=dtype(t))


@row
def ones():
    t = torch.ones(2, 3)
    return out(t, dtype=dtype(t))


@row
def full():
    return out(torch.full((2, 3), 7.0))


@row
def arange_int():
    return out(torch.arange(5))


@row
def long_tensor():
    return out(torch.LongTensor([3, 0, 2]))


@row
def arange_dtype():
    return {"dtype": dtype(torch.arange(5))}


@row
def arange_i64():
    t = torch.arange(5)
    return {"v": vals(t), "dtype": dtype(t)}


@row
def arange_step():
    return out(torch.arange(0, 10, 3))


@row
def arange_float():
    t = torch.arange(0.0, 1.0, 0.25)
    return out(t, dtype=dtype(t))


@row
def linspace():
    return out(torch.linspace(0.0, 1.0, 5))


@row
def eye():
    return out(torch.eye(3))


@row
def zeros_like():
    return out(torch.zeros_like(data(2, 3)))


@row
def ones_like():
    return out(torch.ones_like(data(2, 3)))


@row
def full_like():
    return out(torch.full_like(data(2, 3), -1.5))


@row
def empty():
    t = torch.empty(2, 3)
    return {"shape": list(t.shape), "dtype": dtype(t)}
