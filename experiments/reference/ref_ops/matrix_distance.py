"""矩阵与距离：ref-7-ops/matrix_distance.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def einsum_bmm():
    a, b = leaf(data(2, 3, 4)), leaf(coef(2, 4, 5))
    return backward(torch.einsum("bij,bjk->bik", a, b), dx=a, grad_b=b)


@row
def einsum_attn():
    q, k = leaf(data(1, 2, 3, 4)), leaf(coef(1, 2, 5, 4))
    return backward(torch.einsum("bhqd,bhkd->bhqk", q, k), grad_q=q, grad_k=k)


@row
def baddbmm():
    c, a, b = data(2, 3, 5), coef(2, 3, 4), wave(2, 4, 5)
    return out(torch.baddbmm(c, a, b, beta=0.5, alpha=2.0))


@row
def addmm():
    bias, x, w = wave(5), data(3, 4), coef(4, 5)
    return out(torch.addmm(bias, x, w))


@row
def cdist():
    a, b = leaf(data(2, 3, 4)), leaf(coef(2, 5, 4))
    return backward(torch.cdist(a, b), dx=a, grad_b=b)


SPARSE_IDX = [[0, 1, 1, 2, 2], [1, 0, 2, 2, 2]]
SPARSE_VALS = [0.5, -1.0, 2.0, 0.25, 0.5]


@row
def sparse_mm():
    a = torch.sparse_coo_tensor(torch.tensor(SPARSE_IDX), torch.tensor(SPARSE_VALS), (3, 3))
    x = leaf(data(3, 4))
    return backward(torch.sparse.mm(a, x), dx=x)
