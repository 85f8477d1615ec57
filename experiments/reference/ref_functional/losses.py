"""损失函数：ref-2-functional/losses.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
