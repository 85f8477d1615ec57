"""散布与去重：ref-7-ops/scatter_unique.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


SC_IDX = [[0, 1, 0, 2], [2, 2, 1, 0]]


@row
def scatter_reduce_sum():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="sum"))


@row
def scatter_reduce_amax():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="amax"))


@row
def scatter_reduce_mean():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="mean"))


TOKENS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]


@row
def unique():
    return out(torch.unique(torch.tensor(TOKENS)))


@row
def unique_counts():
    u, c = torch.unique(torch.tensor(TOKENS), return_counts=True)
    return out(u, counts=vals(c))
