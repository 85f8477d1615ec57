"""归一化与 Dropout：ref-8-modules/norm_dropout.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def dropout2d():
    torch.manual_seed(0)
    m = nn.Dropout2d(0.5)
    y = m.train()(torch.ones(8, 16, 3, 3))
    per_channel = y.reshape(8, 16, 9)
    whole = bool((per_channel == per_channel[:, :, :1]).all())
    x = data(2, 3, 2, 2)
    return {"shape": list(y.shape), "values": sorted(set(flat(y))), "whole_channels": whole,
            "eval_identity": bool(torch.equal(m.eval()(x), x))}


@row
def rms_norm():
    m = nn.RMSNorm(4, eps=1e-5)
    setp(m.weight, 10.0)
    return run(m, data(2, 3, 4) * 2)


def small_rms(m):
    # Inputs about 1e-3: mean(x²) is about 1e-7, the size of the default eps.
    setp(m.weight, 10.0)
    with torch.no_grad():
        y = m(data(2, 3, 4) * 1e-3)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def rms_norm_default_eps():
    return small_rms(nn.RMSNorm(4))


@row
def rms_norm_default_eps_fix():
    return small_rms(nn.RMSNorm(4))
