"""初始化：ref-4-training/init.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
