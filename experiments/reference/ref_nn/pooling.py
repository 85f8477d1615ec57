"""池化：ref-3-nn/pooling.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def pool(m, x):
    x = x.clone().requires_grad_(True)
    y = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "dx": dx, "shape": list(y.shape)}


@row
def maxpool2d():
    return pool(nn.MaxPool2d(2), data(1, 2, 4, 6))


@row
def maxpool2d_padding():
    return pool(nn.MaxPool2d(3, stride=2, padding=1), data(1, 1, 5, 6))


@row
def maxpool2d_ceil_mode():
    return pool(nn.MaxPool2d(2, ceil_mode=True), data(1, 1, 5, 5))


@row
def avgpool2d_padding():
    return pool(nn.AvgPool2d(3, stride=2, padding=1), data(1, 1, 5, 6))


@row
def avgpool2d_exclude_pad():
    return pool(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), data(1, 1, 5, 6))


@row
def avgpool2d_ceil_mode():
    return pool(nn.AvgPool2d(2, ceil_mode=True), data(1, 1, 5, 5))


@row
def avgpool2d_ceil_pad():
    return pool(nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True), data(1, 1, 6, 6))


@row
def adaptive_avg_pool2d():
    return pool(nn.AdaptiveAvgPool2d((3, 3)), data(1, 2, 5, 7))
