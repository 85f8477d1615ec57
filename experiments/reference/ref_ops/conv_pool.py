"""卷积与池化：ref-7-ops/conv_pool.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def conv1d_functional():
    x, w, b = leaf(data(2, 2, 7)), leaf(coef(3, 2, 3)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.conv1d(x, w, b, stride=2, padding=1), dx=x, dw=w, db=b)


@row
def conv2d_functional():
    x, w, b = leaf(data(1, 2, 5, 5)), leaf(coef(3, 2, 3, 3)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.conv2d(x, w, b, padding=1), dx=x, dw=w, db=b)


@row
def conv2d_functional_groups():
    x, w = leaf(data(1, 4, 6, 6)), leaf(coef(4, 2, 3, 3))
    return backward(F.conv2d(x, w, stride=2, padding=2, dilation=2, groups=2), dx=x, dw=w)


@row
def unfold():
    x = leaf(data(1, 2, 3, 4))
    return backward(F.unfold(x, kernel_size=2), dx=x)


@row
def fold():
    x = leaf(data(1, 8, 6))
    return backward(F.fold(x, output_size=(3, 4), kernel_size=2), dx=x)


@row
def pixel_shuffle():
    x = leaf(data(1, 8, 2, 3))
    return backward(F.pixel_shuffle(x, 2), dx=x)


@row
def pixel_unshuffle():
    return out(F.pixel_unshuffle(data(1, 2, 4, 6), 2))


@row
def max_pool2d_functional():
    x = leaf(data(1, 2, 4, 6))
    return backward(F.max_pool2d(x, 2), dx=x)


@row
def max_pool2d_indices():
    y, idx = F.max_pool2d(data(1, 2, 4, 6), 2, return_indices=True)
    return out(y, indices=vals(idx))


@row
def avg_pool2d_functional():
    x = leaf(data(1, 2, 5, 5))
    return backward(F.avg_pool2d(x, 3, stride=2, padding=1), dx=x)


@row
def adaptive_avg_pool2d_functional():
    x = leaf(data(2, 3, 4, 5))
    return backward(F.adaptive_avg_pool2d(x, 1), dx=x)
