"""索引与掩码：ref-1-tensor/indexing.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


GATHER_IDX = [[0, 2], [1, 1], [3, 0]]


@row
def gather():
    return out(data(3, 4).gather(1, torch.tensor(GATHER_IDX)))


@row
def scatter():
    x = torch.zeros(3, 4)
    return out(x.scatter(1, torch.tensor([[0, 2], [1, 3], [3, 0]]), data(3, 2)))


@row
def scatter_add():
    x = torch.zeros(2, 3)
    return out(x.scatter_add(1, torch.tensor([[1, 1], [0, 2]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))


@row
def index_select():
    return out(data(4, 3).index_select(0, torch.tensor([2, 0, 2])))


@row
def index_add():
    x = torch.zeros(4, 3)
    return out(x.index_add(0, torch.tensor([0, 2, 0]), data(3, 3)))


@row
def masked_fill():
    x = data(3, 4)
    return out(x.masked_fill(x > 0, 0.0))


@row
def masked_select():
    x = data(3, 4)
    return out(x.masked_select(x > 0))


@row
def where():
    a, b = data(3, 4), data(3, 4) * 10
    return out(torch.where(a > 0, a, b))


@row
def tril():
    return out(torch.tril(data(4, 4)))


@row
def triu():
    return out(torch.triu(data(4, 4), 1))


@row
def nonzero():
    return out(torch.nonzero(data(3, 4) > 0.2))


@row
def nonzero_tuple():
    return parts(torch.nonzero(data(3, 4) > 0.2, as_tuple=True))


@row
def take():
    return out(torch.take(data(3, 4), torch.tensor([0, 5, 11])))
