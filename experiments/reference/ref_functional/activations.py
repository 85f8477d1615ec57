"""激活函数：ref-2-functional/activations.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def act_dim(f):
    x = torch.tensor(ACT_X).reshape(3, 4).requires_grad_()
    y = f(x)
    (y * coef(3, 4)).sum().backward()
    return {"y": nums(y), "dy": nums(x.grad)}


@row
def relu():
    return act(nn.ReLU())


@row
def leaky_relu_default():
    return act(nn.LeakyReLU())


@row
def leaky_relu_slope():
    return act(nn.LeakyReLU(0.2))


@row
def prelu_default():
    return act(nn.PReLU())


@row
def gelu_exact():
    return act(nn.GELU())


@row
def gelu_tanh():
    return act(nn.GELU(approximate="tanh"))


@row
def silu():
    return act(nn.SiLU())


@row
def sigmoid():
    return act(nn.Sigmoid())


@row
def log_sigmoid():
    return act(nn.LogSigmoid())


@row
def tanh():
    return act(nn.Tanh())


@row
def softplus_default():
    return act(nn.Softplus())


@row
def softplus_beta():
    return act(nn.Softplus(beta=2.0, threshold=10.0))


@row
def softmax():
    return act_dim(nn.Softmax(dim=1))


@row
def log_softmax():
    return act_dim(nn.LogSoftmax(dim=1))


@row
def hardtanh():
    return act(nn.Hardtanh())


@row
def relu6():
    return act(nn.ReLU6())


@row
def hardsigmoid():
    return act(nn.Hardsigmoid())


@row
def hardsigmoid_sixth():
    return act(nn.Hardsigmoid())


@row
def hardswish():
    return act(nn.Hardswish())


@row
def elu():
    return act(nn.ELU())


@row
def selu():
    return act(nn.SELU())


@row
def celu():
    return act(nn.CELU())


@row
def mish():
    return act(nn.Mish())


@row
def softsign():
    return act(nn.Softsign())
