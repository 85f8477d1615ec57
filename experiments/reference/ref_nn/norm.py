"""归一化：ref-3-nn/norm.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def bn_train(m, x):
    x = x.clone().requires_grad_(True)
    m.train()
    y = m(x)
    dx, dg, db = backward(y, x, m.weight, m.bias)
    return y, dx, dg, db


@row
def batchnorm1d_train():
    y, dx, dg, db = bn_train(weights(nn.BatchNorm1d(3)), data(4, 3) * 3)
    return {"y": flat(y), "dx": dx, "dgamma": dg, "dbeta": db, "shape": list(y.shape)}


@row
def batchnorm2d_train():
    y, dx, dg, db = bn_train(weights(nn.BatchNorm2d(3)), data(2, 3, 2, 2) * 3)
    return {"y": flat(y), "dx": dx, "dgamma": dg, "shape": list(y.shape)}


@row
def batchnorm_running_mean():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)  # one training step: momentum 0.1
    return {"running_mean": flat(m.running_mean)}


@row
def batchnorm_running_var():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)
    return {"running_var": flat(m.running_var)}


@row
def batchnorm_running_var_unbiased():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)  # running_var takes the unbiased batch variance (n - 1)
    return {"running_var": flat(m.running_var)}


@row
def batchnorm_momentum_none():
    m = nn.BatchNorm1d(3, momentum=None)  # cumulative average over the batches seen
    for t in range(3):
        m(data(4, 3, phase=10.0 * t) * 3)
    return {"running_mean": flat(m.running_mean)}


@row
def batchnorm2d_eval():
    m = weights(nn.BatchNorm2d(3))
    with torch.no_grad():
        m.running_mean.copy_(data(3, phase=60.0))
        m.running_var.copy_(data(3, phase=70.0).abs() + 0.5)
    m.eval()
    y = m(data(2, 3, 2, 2))
    return {"y": flat(y), "shape": list(y.shape)}


@row
def layernorm():
    return run(weights(nn.LayerNorm(4)), data(2, 3, 4) * 2)


@row
def groupnorm():
    return run(weights(nn.GroupNorm(2, 4)), data(2, 4, 3) * 2)


@row
def instancenorm():
    m = nn.InstanceNorm2d(3)  # affine=False: no weight, no bias
    x = (data(2, 3, 3, 4) * 2).requires_grad_(True)
    y = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "shape": list(y.shape), "dx": dx}


@row
def instancenorm_affine():
    return run(weights(nn.InstanceNorm2d(3, affine=True)), data(2, 3, 3, 4) * 2)
