"""卷积、池化与其他层：ref-8-modules/conv_pool_other.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def conv_transpose1d():
    m = nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1, output_padding=1)
    setp(m.weight, 10.0)  # [in, out, k]
    setp(m.bias, 20.0)
    return run(m, data(2, 2, 5))


@row
def maxpool1d():
    return run(nn.MaxPool1d(3, stride=2, padding=1), data(2, 2, 7))


@row
def avgpool1d():
    return run(nn.AvgPool1d(3, stride=2, padding=1), data(2, 2, 7))


@row
def adaptive_avg_pool1d():
    return run(nn.AdaptiveAvgPool1d(3), data(2, 2, 7))


@row
def upsample_nearest():
    return run(nn.Upsample(scale_factor=2, mode="nearest"), data(1, 2, 3, 4))


@row
def upsample_bilinear():
    return run(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False), data(1, 2, 3, 4))


@row
def flatten():
    return run(nn.Flatten(), data(2, 3, 2, 2))


@row
def identity():
    return run(nn.Identity(), data(2, 3))


@row
def cosine_similarity():
    x1, x2 = leaf(data(3, 4)), leaf(data(3, 4, phase=10.0))
    y = nn.CosineSimilarity(dim=1)(x1, x2)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x1.grad), "grad_x2": flat(x2.grad)}
