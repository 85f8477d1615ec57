"""优化器默认值：ref-4-training/optimizer_defaults.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


# PyTorch's defaults, from optimizer.defaults; a missing weight decay is 0.0 on both sides.

def defaults(cls):
    return cls([nn.Parameter(torch.zeros(1))]).defaults


@row
def default_lr():
    # SGD's default lr, as the step it takes: from 0 with gradient 1, the param becomes -lr.
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p])
    p.grad = torch.ones(1)
    optim.step()
    return {"param": nums(p)}


@row
def default_sgd_momentum():
    d = defaults(lambda p: torch.optim.SGD(p, momentum=0.9))
    return {"momentum": d["momentum"], "dampening": float(d["dampening"]),
            "nesterov": d["nesterov"]}


@row
def default_adam_betas():
    d = defaults(torch.optim.Adam)
    return {"beta_1": d["betas"][0], "beta_2": d["betas"][1], "amsgrad": d["amsgrad"],
            "weight_decay": float(d["weight_decay"])}


@row
def default_adam_eps():
    return {"eps": defaults(torch.optim.Adam)["eps"]}


@row
def default_adamw_weight_decay():
    return {"weight_decay": defaults(torch.optim.AdamW)["weight_decay"]}


@row
def default_adamw_eps():
    return {"eps": defaults(torch.optim.AdamW)["eps"]}


@row
def default_rmsprop_alpha():
    d = defaults(torch.optim.RMSprop)
    return {"alpha": d["alpha"], "centered": d["centered"]}


@row
def default_rmsprop_momentum():
    return {"momentum": float(defaults(torch.optim.RMSprop)["momentum"])}


@row
def default_rmsprop_eps():
    return {"eps": defaults(torch.optim.RMSprop)["eps"]}


@row
def default_adagrad():
    d = defaults(torch.optim.Adagrad)
    return {"lr_decay": float(d["lr_decay"])}


@row
def default_adagrad_eps():
    return {"eps": defaults(torch.optim.Adagrad)["eps"]}


@row
def default_lbfgs():
    d = defaults(torch.optim.LBFGS)
    return {"max_iter": d["max_iter"], "history_size": d["history_size"],
            "tolerance_grad": d["tolerance_grad"], "tolerance_change": d["tolerance_change"],
            "line_search": str(d["line_search_fn"])}
