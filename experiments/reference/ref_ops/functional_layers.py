"""函数式的层：ref-7-ops/functional_layers.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


IDS = [[0, 2, 4], [4, 1, 0]]


@row
def embedding_functional():
    w = leaf(data(5, 3))
    return backward(F.embedding(torch.tensor(IDS), w), dw=w)


@row
def linear_functional_naive():
    x, w, b = data(2, 4), coef(4, 4), torch.tensor([0.1, -0.2, 0.3, 0.0])
    return out(F.linear(x, w, b))


@row
def linear_functional():
    x, w, b = leaf(data(2, 4)), leaf(coef(3, 4)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.linear(x, w, b), dx=x, dw=w, db=b)


@row
def layer_norm_functional():
    x, w, b = leaf(data(3, 4)), leaf(1.0 + coef(4)), leaf(wave(4))
    return backward(F.layer_norm(x, (4,), w, b, eps=1e-5), dx=x, dw=w, db=b)


@row
def batch_norm_functional():
    x, w, b = leaf(data(4, 3)), leaf(1.0 + coef(3)), leaf(wave(3))
    rm, rv = torch.tensor([0.1, -0.1, 0.2]), torch.tensor([0.5, 1.5, 0.8])
    y = F.batch_norm(x, rm, rv, w, b, training=False, eps=1e-5)
    return backward(y, dx=x, dw=w, db=b)


@row
def rms_norm():
    x, w = leaf(data(3, 4)), leaf(1.0 + coef(4))
    return backward(F.rms_norm(x, (4,), w, eps=1e-6), dx=x, dw=w)


@row
def normalize():
    x = leaf(data(3, 4))
    return backward(F.normalize(x, dim=1), dx=x)


@row
def glu():
    x = leaf(data(3, 4))
    return backward(F.glu(x, dim=-1), dx=x)
