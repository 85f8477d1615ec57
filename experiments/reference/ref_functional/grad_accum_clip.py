"""梯度累积与裁剪：ref-2-functional/grad_accum_clip.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def _two_backwards():
    x = data(3).requires_grad_()
    (x * x).sum().backward()  # grad 2x
    (x * coef(3)).sum().backward()  # grad c, added to .grad
    return x.grad


@row
def grad_accum_naive():
    return {"grad": nums(_two_backwards())}


@row
def grad_accum_sum():
    return {"grad": nums(_two_backwards())}


@row
def grad_accum_module():
    lin = linear()
    for i in range(2):
        x = grid(lambda k, i=i: 0.1 * (k + 6 * i) - 0.5, 2, 3)
        F.mse_loss(lin(x), coef(2, 2) * (i + 1)).backward()
    return {"weight": nums(lin.weight.grad), "bias": nums(lin.bias.grad)}


def clip_params():
    w = torch.zeros(2, 3, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    w.grad = grid(lambda k: 1.5 * math.cos(0.7 * k + 1.0), 2, 3)
    b.grad = torch.tensor([3.0, -4.0])
    return w, b


@row
def clip_grad_norm():
    w, b = clip_params()
    torch.nn.utils.clip_grad_norm_([w, b], max_norm=1.0)
    return {"w": nums(w.grad), "b": nums(b.grad)}


@row
def clip_grad_norm_global():
    w, b = clip_params()
    torch.nn.utils.clip_grad_norm_([w, b], max_norm=1.0)
    return {"w": nums(w.grad), "b": nums(b.grad)}


@row
def clip_grad_value():
    w, b = clip_params()
    torch.nn.utils.clip_grad_value_([w, b], clip_value=1.0)
    return {"w": nums(w.grad), "b": nums(b.grad)}
