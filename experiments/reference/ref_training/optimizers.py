"""优化器：ref-4-training/optimizers.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def steps(make_optim, n=STEPS):
    """Params after each of n steps with the fixed gradients."""
    lin = make_linear()
    optim = make_optim(lin)
    out = {}
    for t in range(1, n + 1):
        set_grads(lin, t)
        optim.step()
        out[f"step{t}"] = {"weight": nums(lin.weight), "bias": nums(lin.bias)}
    return out

@row
def sgd():
    return steps(lambda m: torch.optim.SGD(m.parameters(), lr=0.1))


@row
def sgd_momentum():
    return steps(lambda m: torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9))


@row
def sgd_momentum_burn_default():
    # the same call; burn's side keeps MomentumConfig's defaults
    return sgd_momentum()


@row
def sgd_nesterov():
    return steps(lambda m: torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True))


@row
def sgd_weight_decay():
    return steps(lambda m: torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=0.01))


@row
def adam():
    return steps(lambda m: torch.optim.Adam(m.parameters(), lr=0.01))


@row
def adam_l2():
    return steps(lambda m: torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=0.01))


@row
def adam_amsgrad():
    return steps(lambda m: torch.optim.Adam(m.parameters(), lr=0.01, amsgrad=True))


@row
def adamw():
    return steps(lambda m: torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.01))


@row
def rmsprop():
    return steps(lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01))


@row
def rmsprop_centered_momentum():
    return steps(lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01, momentum=0.9,
                                               centered=True))


@row
def adagrad():
    return steps(lambda m: torch.optim.Adagrad(m.parameters(), lr=0.1))


@row
def adagrad_lr_decay():
    return steps(lambda m: torch.optim.Adagrad(m.parameters(), lr=0.1, lr_decay=0.1))


@row
def adadelta():
    return steps(lambda m: torch.optim.Adadelta(m.parameters(), lr=1.0))


def regression():
    # 8 samples of 4 features and 3 targets, for the optimizers that need a real loss.
    x = torch.tensor([[0.5 * math.sin(0.3 * k + 0.1 * j) for j in range(IN)] for k in range(8)])
    y = torch.tensor([[0.5 * math.cos(0.2 * k + 0.5 * j) for j in range(OUT)] for k in range(8)])
    return x, y


def lbfgs_run():
    x, y = regression()
    lin = make_linear()
    optim = torch.optim.LBFGS(lin.parameters(), lr=0.5)

    def closure():
        optim.zero_grad()
        loss = ((lin(x) - y) ** 2).mean()
        loss.backward()
        return loss

    returned = optim.step(closure).item()
    with torch.no_grad():
        after = float(((lin(x) - y) ** 2).mean())
    return lin, returned, after


@row
def lbfgs():
    lin, _, _ = lbfgs_run()
    return {"weight": nums(lin.weight), "bias": nums(lin.bias)}


@row
def lbfgs_returned_loss():
    # What step(closure) hands back.
    _, returned, _ = lbfgs_run()
    return {"loss": returned}


@row
def lbfgs_loss_before_step():
    # The same number: the loss of the first closure call, before the step.
    _, returned, _ = lbfgs_run()
    return {"loss": returned}


@row
def param_groups_lr():
    # weight at lr 0.1, bias at lr 0.01
    return steps(lambda m: torch.optim.SGD([{"params": [m.weight]},
                                            {"params": [m.bias], "lr": 0.01}], lr=0.1))


@row
def param_groups_optim():
    # weight decay on the weight only
    return steps(lambda m: torch.optim.Adam([{"params": [m.weight], "weight_decay": 0.1},
                                             {"params": [m.bias]}], lr=0.01))
