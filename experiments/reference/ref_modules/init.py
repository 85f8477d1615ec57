"""初始化：ref-8-modules/init.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def draws_stats(w, bound=None):
    v = w.detach().double().flatten()
    n = v.numel()
    mean = float(v.sum()) / n
    var = float(((v - mean) ** 2).sum()) / (n - 1)
    out = {"mean": mean, "std": math.sqrt(var)}
    if bound is not None:
        out["max_abs"] = float(v.abs().max())
        out["within_bound"] = bool(float(v.abs().max()) <= bound)
    return out


@row
def init_trunc_normal():
    torch.manual_seed(0)
    return draws_stats(nn.init.trunc_normal_(torch.empty(1024, 64), mean=0.0, std=1.0, a=-2.0, b=2.0), 2.0)


@row
def init_trunc_normal_std():
    torch.manual_seed(0)
    return draws_stats(nn.init.trunc_normal_(torch.empty(1024, 64), std=0.02))


@row
def init_orthogonal():
    torch.manual_seed(0)
    w = nn.init.orthogonal_(torch.empty(4, 6))
    return {"gram": flat(w @ w.T), "shape": list(w.shape)}


@row
def module_apply_init():
    def weights_init(m):
        if isinstance(m, nn.Conv2d):
            nn.init.normal_(m.weight, 0.0, 0.02)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.normal_(m.weight, 1.0, 0.02)
            nn.init.zeros_(m.bias)

    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(64, 128, 4, bias=False), nn.BatchNorm2d(4096))
    m.apply(weights_init)
    conv, bn = draws_stats(m[0].weight), draws_stats(m[1].weight)
    # The tail tells N(0, 0.02) from burn's default KaimingUniform (bounded by 1/32 here).
    beyond = float((m[0].weight.detach().abs() > 0.04).double().mean())
    return {"conv_mean": conv["mean"], "conv_std": conv["std"], "conv_beyond_2std": beyond,
            "bn_mean": bn["mean"], "bn_std": bn["std"], "bn_bias_zero": bool((m[1].bias == 0).all())}


@row
def module_map_init():
    # The same apply(weights_init); burn's side walks the model with Module::map.
    return module_apply_init()
