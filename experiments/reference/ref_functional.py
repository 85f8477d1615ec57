"""The torch → burn map, autograd, activation and loss rows: one function per row of
ref-2-functional.yaml's table.

Inputs are the same numbers on both sides, computed in f64 and rounded to f32 once:
- autograd rows: X[k] = 0.5·sin(k + 1), C[k] = 0.5·cos(k + 1);
- activation rows: the twelve points ACT_X (exact in f32, none of them a kink, out to ±25,
  past softplus's threshold); "y" is f(x), "dy" is d(sum y)/dx, for softmax and
  log_softmax d(sum y·C)/dx on [3, 4]; the kink rows use the six points KINK_X only, and the
  rows that fix them ("..._kink_fix") both sets, with the new keys "y" and "dx";
- loss rows: logits L[k] = 2·sin(k + 1) on [4, 3], class targets [2, 0, 1, 2], regression
  prediction 2·sin(k + 1) against target 0.5·cos(k + 1); "loss" is the value, "grad" the
  gradient with respect to the logits (or the prediction).
"""
import json
import math
import warnings

import torch
import torch.nn.functional as F
from torch import nn

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def grid(f, *shape):
    n = math.prod(shape)
    return torch.tensor([f(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def data(*shape):
    return grid(lambda k: 0.5 * math.sin(k), *shape)


def coef(*shape):
    return grid(lambda k: 0.5 * math.cos(k), *shape)


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def leaf(t):
    return t.clone().requires_grad_()


# ---------------------------------------------------------------- autograd

@row
def requires_grad():
    x = data(6).requires_grad_()
    (x * x).sum().backward()
    return {"require_grad": x.requires_grad, "grad": nums(x.grad)}


@row
def backward_scalar():
    x = data(2, 3).requires_grad_()
    f = (torch.tanh(x) * coef(2, 3)).sum()
    f.backward()
    return {"f": nums(f), "grad": nums(x.grad), "shape": list(x.grad.shape)}


@row
def backward_nonscalar():
    x = data(4).requires_grad_()
    y = x * x * x  # shape [4]; y.backward() alone raises here
    y.backward(torch.ones_like(y))
    return {"grad": nums(x.grad)}


@row
def constant_grad():
    x, c = data(3).requires_grad_(), coef(3)
    (x * c).sum().backward()
    return {"c_has_grad": c.grad is not None, "grad": nums(x.grad)}


@row
def autograd_grad():
    x = data(2, 3).requires_grad_()
    f = (torch.tanh(x) * coef(2, 3)).sum()
    (g,) = torch.autograd.grad(f, [x])
    return {"grad": nums(g), "grad_tracked": g.requires_grad}


@row
def grad_remove():
    x = data(3).requires_grad_()
    (x * x).sum().backward()
    g = x.grad
    x.grad = None
    return {"grad": nums(g), "after": x.grad is not None}


@row
def module_freeze():
    lin = linear()
    lin.requires_grad_(False)
    x = data(2, 3).requires_grad_()
    lin(x).sum().backward()
    return {"weight_require_grad": lin.weight.requires_grad,
            "weight_has_grad": lin.weight.grad is not None, "x_grad": nums(x.grad)}


@row
def nonleaf_grad():
    x = data(3).requires_grad_()
    y = x * 2.0
    (y * y).sum().backward()
    # torch warns on reading .grad of a non-leaf; the value is None all the same.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        has = y.grad is not None
    return {"y_has_grad": has, "x_grad": nums(x.grad)}


@row
def retain_grad():
    x = data(3).requires_grad_()
    y = x * 2.0
    y.retain_grad()
    (y * y).sum().backward()
    return {"x_grad": nums(x.grad), "y_grad": nums(y.grad)}


@row
def no_grad():
    w = data(3).requires_grad_()
    with torch.no_grad():
        y = w * coef(3)
    return {"v": nums(y), "tracked": y.requires_grad}


@row
def detach():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    z = y.detach()
    (y * z).sum().backward()
    return {"z_require_grad": z.requires_grad, "grad": nums(x.grad)}


@row
def requires_grad_false():
    x = data(3).requires_grad_().requires_grad_(False)
    y = x * x
    return {"require_grad": x.requires_grad, "tracked": y.requires_grad}


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


def linear():
    lin = nn.Linear(3, 2)
    with torch.no_grad():
        lin.weight.copy_(data(2, 3))
        lin.bias.copy_(torch.tensor([0.0, 0.01]))
    return lin


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


# ---------------------------------------------------------------- activations

ACT_X = [-25.0, -5.0, -2.5, -1.5, -0.75, -0.25, 0.25, 0.75, 1.5, 2.5, 5.0, 25.0]
KINK_X = [-3.0, -1.0, 0.0, 1.0, 3.0, 6.0]


def act(f, points=ACT_X):
    x = torch.tensor(points, requires_grad=True)
    y = f(x)
    y.sum().backward()
    return {"y": nums(y), "dy": nums(x.grad)}


def act_fix(f):
    # A fix of a kink row: the regular points and the kinks, new keys "y" and "dx".
    r = act(f, ACT_X + KINK_X)
    return {"y": r["y"], "dx": r["dy"]}


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


# ---------------------------------------------------------------- losses

B, C = 4, 3
TARGETS = [2, 0, 1, 2]


def logits():
    return grid(lambda k: 2.0 * math.sin(k), B, C).requires_grad_()


def probs_target():
    # Soft targets: a softmax of 0.5·cos(k), computed in f64 per row, rounded once.
    rows = []
    for r in range(B):
        e = [math.exp(0.5 * math.cos(r * C + c + 1)) for c in range(C)]
        rows.append([v / sum(e) for v in e])
    return torch.tensor(rows, dtype=torch.float32)


def loss_out(loss, x):
    loss.sum().backward() if loss.dim() else loss.backward()
    return {"loss": nums(loss), "grad": nums(x.grad)}


def ce_with(**kw):
    x = logits()
    return loss_out(nn.CrossEntropyLoss(**kw)(x, torch.tensor(TARGETS)), x)


@row
def ce_index():
    return ce_with()


@row
def ce_probs():
    x = logits()
    return loss_out(nn.CrossEntropyLoss()(x, probs_target()), x)


@row
def ce_smoothing():
    return ce_with(label_smoothing=0.1)


@row
def ce_weight():
    return ce_with(weight=torch.tensor([1.0, 2.0, 0.5]))


@row
def ce_weight_smoothing():
    return ce_with(weight=torch.tensor([1.0, 2.0, 0.5]), label_smoothing=0.1)


@row
def ce_ignore_index():
    return ce_with(ignore_index=1)


@row
def ce_ignore_index_neg():
    # a GPT script's padding: the targets past the end of the text are -1
    x = logits()
    return loss_out(nn.CrossEntropyLoss(ignore_index=-1)(x, torch.tensor([2, -1, 1, -1])), x)


@row
def ce_sum():
    return ce_with(reduction="sum")


@row
def ce_none():
    return ce_with(reduction="none")


@row
def nll():
    x = logits()
    return loss_out(F.nll_loss(F.log_softmax(x, dim=1), torch.tensor(TARGETS)), x)


BIN = [[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0]]


def bce_probs():
    # Probabilities σ(2·sin(k)), in f64, rounded once: a leaf of their own.
    return grid(lambda k: 1.0 / (1.0 + math.exp(-2.0 * math.sin(k))), B, C).requires_grad_()


@row
def bce():
    p = bce_probs()
    return loss_out(nn.BCELoss()(p, torch.tensor(BIN, dtype=torch.float32)), p)


@row
def bce_weight():
    p = bce_probs()
    w = torch.tensor([1.0, 2.0, 0.5])
    return loss_out(nn.BCELoss(weight=w)(p, torch.tensor(BIN, dtype=torch.float32)), p)


@row
def bce_logits():
    x = logits()
    return loss_out(nn.BCEWithLogitsLoss()(x, torch.tensor(BIN, dtype=torch.float32)), x)


@row
def bce_logits_pos_weight():
    x = logits()
    pw = torch.tensor([3.0, 1.0, 0.5])
    return loss_out(nn.BCEWithLogitsLoss(pos_weight=pw)(x, torch.tensor(BIN, dtype=torch.float32)), x)


@row
def bce_soft_targets():
    x = logits()
    return loss_out(nn.BCEWithLogitsLoss()(x, probs_target()), x)


def pred():
    return grid(lambda k: 2.0 * math.sin(k), B, C).requires_grad_()


def target():
    return coef(B, C)


def reg(loss_fn):
    p = pred()
    return loss_out(loss_fn(p, target()), p)


@row
def mse():
    return reg(nn.MSELoss())


@row
def mse_sum():
    return reg(nn.MSELoss(reduction="sum"))


@row
def mse_none():
    return reg(nn.MSELoss(reduction="none"))


@row
def l1():
    return reg(nn.L1Loss())


@row
def smooth_l1_default():
    return reg(nn.SmoothL1Loss())


@row
def smooth_l1_beta():
    return reg(nn.SmoothL1Loss(beta=0.5))


@row
def smooth_l1_beta_2():
    p = pred()
    loss = nn.SmoothL1Loss(beta=2.0)(p, target())
    loss.backward()
    return {"y": nums(loss), "dx": nums(p.grad)}


@row
def huber():
    return reg(nn.HuberLoss(delta=2.0))


@row
def huber_vs_smooth_l1():
    return reg(nn.SmoothL1Loss(beta=2.0))


def kl_inputs():
    x = logits()
    return x, F.log_softmax(x, dim=1), probs_target()


@row
def kldiv_batchmean():
    x, inp, t = kl_inputs()
    return loss_out(nn.KLDivLoss(reduction="batchmean")(inp, t), x)


@row
def kldiv_log_target():
    x, inp, t = kl_inputs()
    return loss_out(nn.KLDivLoss(reduction="batchmean", log_target=True)(inp, t.log()), x)


@row
def kldiv_mean():
    x, inp, t = kl_inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that "mean" is not the true KL divergence
        return loss_out(nn.KLDivLoss(reduction="mean")(inp, t), x)


@row
def kldiv_default():
    x, inp, t = kl_inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that "mean" is not the true KL divergence
        return loss_out(nn.KLDivLoss()(inp, t), x)


print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
