"""The torch → burn map, training rows: optimizers, their defaults, lr schedulers, init,
save/load and data loading; one function per row of ref-4-training.yaml's table.

Optimizer rows: nn.Linear(4, 3) with weight element k (1-based, [out, in] order) 0.5·sin(k) and
bias element o 0.5·cos(o + 1); at step t (1-based) the gradients are set directly: weight
0.1·cos(0.7·k + t), bias 0.1·sin(o + 1 + 2t). Every value in f64, rounded to f32 once; the same
numbers as crates/ref-training. Rows about random draws compare bounds and moments, not draws.
"""
import io
import dataclasses
import json
import math

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

ROWS = {}
IN, OUT, STEPS = 4, 3, 3


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def make_linear():
    lin = nn.Linear(IN, OUT)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)]))
        lin.bias.copy_(torch.tensor([0.5 * math.cos(o + 1) for o in range(OUT)]))
    return lin


def set_grads(lin, t):
    lin.weight.grad = torch.tensor([[0.1 * math.cos(0.7 * (r * IN + c + 1) + t) for c in range(IN)]
                                    for r in range(OUT)])
    lin.bias.grad = torch.tensor([0.1 * math.sin(o + 1 + 2 * t) for o in range(OUT)])


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


# ---- 优化器 ----

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


# ---- 优化器默认值 ----
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


# ---- 学习率调度 ----

def lr_sequence(make_sched, n=12, lr=0.1):
    """The lr each of n optimizer steps uses: optimizer.step(), then scheduler.step()."""
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=lr)
    sched = make_sched(optim)
    seq = []
    for _ in range(n):
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step()
    return {"lr": seq}


@row
def step_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3))


@row
def cosine_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(
        o, T_max=10, eta_min=0.001))


@row
def linear_warmup_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.LinearLR(
        o, start_factor=0.1, end_factor=1.0, total_iters=5))


@row
def exponential_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))


@row
def scheduler_lr_above_one():
    # A base lr of 2.0 for a cosine schedule: accepted?
    try:
        seq = lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10),
                          n=1, lr=2.0)
        return {"accepted": seq["lr"][0] == 2.0}
    except ValueError:
        return {"accepted": False}


@row
def cosine_lr_above_one():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10), lr=2.0)


# ---- 初始化 ----
# Random draws differ between the generators: compare bounds and moments of many draws.

FAN_OUT, FAN_IN = 1024, 64  # a weight of shape [out, in], 65536 draws


def draws_stats(w, bound):
    v = w.detach().double().flatten()
    n = v.numel()
    mean = float(v.sum()) / n
    var = float(((v - mean) ** 2).sum()) / (n - 1)
    out = {"mean": mean, "std": math.sqrt(var)}
    if bound is not None:  # a uniform draw: its largest |x| comes close to the bound
        out["max_abs"] = float(v.abs().max())
        out["within_bound"] = bool(float(v.abs().max()) <= bound)
    return out


def weight():
    return torch.empty(FAN_OUT, FAN_IN)


@row
def init_zeros():
    return {"v": nums(nn.init.zeros_(torch.empty(2, 3))), "shape": [2, 3]}


@row
def init_ones():
    return {"v": nums(nn.init.ones_(torch.empty(2, 3))), "shape": [2, 3]}


@row
def calculate_gain():
    return {"relu": nn.init.calculate_gain("relu"), "leaky_relu": nn.init.calculate_gain("leaky_relu", 0.2),
            "tanh": nn.init.calculate_gain("tanh")}


@row
def init_constant():
    return {"v": nums(nn.init.constant_(torch.empty(2, 3), 0.25)), "shape": [2, 3]}


@row
def init_uniform():
    torch.manual_seed(0)
    return draws_stats(nn.init.uniform_(weight(), -0.3, 0.3), 0.3)


@row
def init_normal():
    torch.manual_seed(0)
    return draws_stats(nn.init.normal_(weight(), mean=1.0, std=2.0), None)


@row
def init_xavier_uniform():
    # bound = gain · √(6 / (fan_in + fan_out)), gain 1
    torch.manual_seed(0)
    return draws_stats(nn.init.xavier_uniform_(weight()), math.sqrt(6.0 / (FAN_IN + FAN_OUT)))


@row
def init_xavier_normal():
    torch.manual_seed(0)
    return draws_stats(nn.init.xavier_normal_(weight()), None)


@row
def init_kaiming_uniform():
    # a=0, leaky_relu: gain √2, bound = gain · √(3 / fan_in)
    torch.manual_seed(0)
    return draws_stats(nn.init.kaiming_uniform_(weight()), math.sqrt(2.0) * math.sqrt(3.0 / FAN_IN))


@row
def init_kaiming_normal():
    torch.manual_seed(0)
    return draws_stats(nn.init.kaiming_normal_(weight()), None)


@row
def init_kaiming_fan_from_shape():
    # kaiming_uniform_ reads fan_in from the tensor's shape: no fan to pass.
    try:
        nn.init.kaiming_uniform_(weight())
        return {"ok": True}
    except Exception:
        return {"ok": False}


@row
def init_linear_default():
    # reset_parameters: weight and bias in U(-1/√in, 1/√in)
    torch.manual_seed(0)
    lin = nn.Linear(FAN_IN, FAN_OUT)
    bound = 1 / math.sqrt(FAN_IN)
    w, b = draws_stats(lin.weight, bound), draws_stats(lin.bias, bound)
    return {"weight_max_abs": w["max_abs"], "weight_within_bound": w["within_bound"],
            "bias_within_bound": b["within_bound"], "weight_std": w["std"]}


@row
def init_seed_repeat():
    torch.manual_seed(7)
    a = torch.rand(4, 4)
    torch.manual_seed(7)
    b = torch.rand(4, 4)
    return {"same_draws": bool(torch.equal(a, b))}


# ---- 存取 ----

@row
def save_load_file():
    lin = make_linear()
    torch.save(lin.state_dict(), "lin.pt")
    fresh = nn.Linear(IN, OUT)
    fresh.load_state_dict(torch.load("lin.pt"))
    return {"weight": nums(fresh.weight), "bias": nums(fresh.bias)}


@dataclasses.dataclass
class TrainConfig:
    """What a training script keeps in its config file (burn: #[derive(Config)])."""
    lr: float
    batch_size: int
    momentum: float = 0.9


@row
def config_roundtrip():
    cfg = TrainConfig(lr=0.05, batch_size=16)
    with open("train.json", "w", encoding="utf-8") as f:
        json.dump(dataclasses.asdict(cfg), f)
    with open("train.json", encoding="utf-8") as f:
        back = TrainConfig(**json.load(f))
    return {"lr": back.lr, "batch_size": back.batch_size, "momentum": back.momentum}


@row
def config_missing_default():
    # A file written before `momentum` existed: the field's default fills it in.
    with open("old.json", "w", encoding="utf-8") as f:
        json.dump({"lr": 0.05, "batch_size": 16}, f)
    with open("old.json", encoding="utf-8") as f:
        back = TrainConfig(**json.load(f))
    return {"loaded": f"momentum = {back.momentum}"}


@row
def config_missing_default_filled():
    # The same old file: the dataclass fills in the default.
    with open("old.json", "w", encoding="utf-8") as f:
        json.dump({"lr": 0.05, "batch_size": 16}, f)
    with open("old.json", encoding="utf-8") as f:
        back = TrainConfig(**json.load(f))
    return {"lr": back.lr, "batch_size": back.batch_size, "momentum": back.momentum}


@row
def save_load_bytes():
    lin = make_linear()
    buf = io.BytesIO()
    torch.save(lin.state_dict(), buf)
    buf.seek(0)
    fresh = nn.Linear(IN, OUT)
    fresh.load_state_dict(torch.load(buf))
    return {"weight": nums(fresh.weight), "bias": nums(fresh.bias)}


def dtype_name(t):
    return {torch.float32: "f32", torch.float64: "f64"}[t.dtype]


def make_linear64():
    # The same parameters in f64, not rounded to f32.
    lin = nn.Linear(IN, OUT).double()
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.5 * math.sin(r * IN + c + 1) for c in range(IN)]
                                       for r in range(OUT)], dtype=torch.float64))
        lin.bias.copy_(torch.tensor([0.5 * math.cos(o + 1) for o in range(OUT)],
                                    dtype=torch.float64))
    return lin


def loaded(lin):
    return {"dtype": dtype_name(lin.weight), "weight": nums(lin.weight), "bias": nums(lin.bias)}


@row
def save_keeps_dtype():
    torch.save(make_linear64().state_dict(), "lin64.pt")
    fresh = nn.Linear(IN, OUT).double()
    fresh.load_state_dict(torch.load("lin64.pt"))
    return loaded(fresh)


@row
def load_f64_into_f32():
    fresh = nn.Linear(IN, OUT)  # f32: the f64 values are rounded into it
    fresh.load_state_dict(make_linear64().state_dict())
    return loaded(fresh)


@row
def load_f64_into_f32_cast():
    return load_f64_into_f32()


@row
def load_missing_key():
    sd = make_linear().state_dict()
    del sd["bias"]
    try:
        nn.Linear(IN, OUT).load_state_dict(sd)
        return {"error": False}
    except RuntimeError:
        return {"error": True}


@row
def load_partial():
    sd = make_linear().state_dict()
    del sd["bias"]
    fresh = nn.Linear(IN, OUT)
    fresh.load_state_dict(sd, strict=False)
    return {"weight": nums(fresh.weight)}


@row
def optimizer_resume():
    # Adam: two steps, optimizer state through bytes into a new optimizer, a third step.
    lin = make_linear()
    optim = torch.optim.Adam(lin.parameters(), lr=0.01)
    for t in (1, 2):
        set_grads(lin, t)
        optim.step()
    buf = io.BytesIO()
    torch.save(optim.state_dict(), buf)
    buf.seek(0)
    restored = torch.optim.Adam(lin.parameters(), lr=0.01)
    restored.load_state_dict(torch.load(buf))
    set_grads(lin, 3)
    restored.step()
    return {"weight": nums(lin.weight), "bias": nums(lin.bias)}


# ---- 数据加载 ----

N, BATCH, SEED = 10, 4, 3


class Values(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return i


@row
def dataset_len_get():
    ds = Values()
    return {"len": len(ds), "item3": ds[3]}


@row
def batches():
    return {"batches": [b.tolist() for b in DataLoader(Values(), batch_size=BATCH)]}


@row
def drop_last():
    return {"batches": [b.tolist() for b in DataLoader(Values(), batch_size=BATCH, drop_last=True)]}


def epochs(n):
    g = torch.Generator().manual_seed(SEED)
    loader = DataLoader(Values(), batch_size=BATCH, shuffle=True, generator=g)
    return [[x for b in loader for x in b.tolist()] for _ in range(n)]


@row
def shuffle_order():
    return {"order": epochs(1)[0]}


@row
def shuffle_order_given():
    # burn's side is handed this order (the values are the indices), as a constant.
    return {"order": epochs(1)[0]}


@row
def shuffle_permutation():
    es = epochs(5)
    return {"every_epoch_permutation": all(sorted(e) == list(range(N)) for e in es),
            "order_changes_every_epoch": all(a != b for a, b in zip(es, es[1:]))}


@row
def shuffle_same_seed():
    return {"same_order": epochs(3) == epochs(3)}


print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
