"""激活函数的拐点：ref-2-functional/activation_kinks.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


KINK_X = [-3.0, -1.0, 0.0, 1.0, 3.0, 6.0]


def act_fix(f):
    # A fix of a kink row: the regular points and the kinks, new keys "y" and "dx".
    r = act(f, ACT_X + KINK_X)
    return {"y": r["y"], "dx": r["dy"]}


# At the kinks each side picks a one-sided derivative: KINK_X only.

@row
def relu_kink():
    return act(nn.ReLU(), KINK_X)


@row
def leaky_relu_kink():
    return act(nn.LeakyReLU(), KINK_X)


@row
def leaky_relu_kink_fix():
    return act_fix(nn.LeakyReLU())


@row
def hardtanh_kink():
    return act(nn.Hardtanh(), KINK_X)


@row
def hardtanh_kink_fix():
    return act_fix(nn.Hardtanh())


@row
def relu6_kink():
    return act(nn.ReLU6(), KINK_X)


@row
def relu6_kink_fix():
    return act_fix(nn.ReLU6())


@row
def hardswish_kink():
    return act(nn.Hardswish(), KINK_X)


@row
def hardswish_kink_fix():
    return act_fix(nn.Hardswish())


@row
def elu_kink():
    return act(nn.ELU(), KINK_X)


@row
def selu_kink():
    return act(nn.SELU(), KINK_X)


@row
def selu_kink_fix():
    return act_fix(nn.SELU())
