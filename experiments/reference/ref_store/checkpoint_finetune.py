"""checkpoint 与微调：ref-5-store/checkpoint_finetune.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def adam_step(model, opt, x):
    opt.zero_grad()
    (model(x) ** 2).mean().backward()
    opt.step()


@row
def checkpoint_resume():
    # Two epochs, a whole checkpoint, then a fresh model and optimizer resume from it.
    model = loaded_zoo().lin
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x = data(2, 4)
    for epoch in range(2):
        adam_step(model, opt, x)
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 2}, "resume.pt")

    ckpt = torch.load("resume.pt")
    model = nn.Linear(4, 3)
    model.load_state_dict(ckpt["model"])
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    opt.load_state_dict(ckpt["optimizer"])
    start = ckpt["epoch"]
    adam_step(model, opt, x)
    return {"epoch": start, "weight": flat(model.weight), "bias": flat(model.bias)}


@row
def save_load_state_dict():
    small = Small()
    small.load_state_dict(load_file(DATA / "small_export.safetensors"))
    torch.save(small.state_dict(), "small.pt")
    back = Small()
    back.load_state_dict(torch.load("small.pt"))
    back.eval()
    with torch.no_grad():
        y = back(data(2, 2, 3, 5) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def checkpoint_keys():
    dtypes = {torch.float32: "F32", torch.int64: "I64"}
    sd = torch.load(DATA / "zoo.pt")
    return {"tensors": sorted(f"{k} {dtypes[v.dtype]} " + "x".join(map(str, v.shape))
                              for k, v in sd.items())}


@row
def load_checkpoint_dict():
    ckpt = torch.load(DATA / "ckpt.pt")
    net = Net()
    net.load_state_dict({k.removeprefix("module."): v for k, v in ckpt["model"].items()})
    with torch.no_grad():
        y = net(data(2, 4))
    return {"y": flat(y), "weight": flat(net.lin.weight), "bias": flat(net.lin.bias)}


@row
def load_checkpoint_epoch():
    ckpt = torch.load(DATA / "ckpt.pt")
    return {"epoch": ckpt["epoch"], "lr": ckpt["optimizer"]["param_groups"][0]["lr"]}


@row
def load_optimizer_state():
    # ckpt.pt was saved after 3 Adam steps on data(2, 4): one more, resumed from its state.
    ckpt = torch.load(DATA / "ckpt.pt")
    net = Net()
    net.load_state_dict({k.removeprefix("module."): v for k, v in ckpt["model"].items()})
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    opt.load_state_dict(ckpt["optimizer"])
    adam_step(net, opt, data(2, 4))
    return {"weight": flat(net.lin.weight), "bias": flat(net.lin.bias)}


@row
def load_map_location():
    device = torch.device("cpu")
    zoo = Zoo().to(device)
    zoo.load_state_dict(torch.load(DATA / "zoo.pt", map_location=device))
    with torch.no_grad():
        y = zoo.lin(data(2, 4))
    return {"y": flat(y), "on_device": zoo.lin.weight.device == device}


class Renamed(nn.Module):
    """Zoo's ln and lin under other names."""
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(self.norm(x))


@row
def load_remap_keys():
    sd = torch.load(DATA / "zoo.pt")
    sd = {re.sub(r"^lin\.", "fc.", re.sub(r"^ln\.", "norm.", k)): v for k, v in sd.items()}
    net = Renamed()
    net.load_state_dict(sd, strict=False)
    with torch.no_grad():
        y = net(data(2, 4))
    return {"y": flat(y), "shape": list(y.shape)}


class FineTune(nn.Module):
    """Zoo's conv and bn as the backbone, a new head for 5 classes."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.lin = nn.Linear(3, 5)


@row
def load_subset():
    sd = {k: v for k, v in torch.load(DATA / "zoo.pt").items() if k.startswith(("conv.", "bn."))}
    model = FineTune()
    result = model.load_state_dict(sd, strict=False)
    model.eval()
    with torch.no_grad():
        y = model.bn(model.conv(data(2, 2, 4, 4)))
    return {"y": flat(y), "not_loaded": sorted(result.missing_keys)}


class WithExtra(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.extra = nn.Linear(3, 2)


@row
def load_strict_false():
    model = WithExtra()
    result = model.load_state_dict(torch.load(DATA / "zoo.pt"), strict=False)
    return {"missing": sorted(result.missing_keys), "unexpected": sorted(result.unexpected_keys),
            "weight": flat(model.lin.weight)}


class JustLin(nn.Module):
    def __init__(self, out=3):
        super().__init__()
        self.lin = nn.Linear(4, out)


def strict_error():
    # zoo.pt has every layer of Zoo: strict=True refuses the keys JustLin has no place for.
    try:
        JustLin().load_state_dict(torch.load(DATA / "zoo.pt"))
        return {"error": False}
    except RuntimeError as e:
        return {"error": "Unexpected key(s)" in str(e)}


@row
def load_strict_unexpected():
    return strict_error()


@row
def load_strict_unexpected_check():
    return strict_error()


@row
def load_shape_mismatch():
    sd = {k: v for k, v in torch.load(DATA / "zoo.pt").items() if k.startswith("lin.")}
    try:
        JustLin(out=5).load_state_dict(sd)
        return {"error": False, "keys": []}
    except RuntimeError as e:
        return {"error": True, "keys": [k for k in ("lin.bias", "lin.weight") if k in str(e)]}


class Tune(nn.Module):
    """Zoo's ln and lin, fine-tuned."""
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(4)
        self.lin = nn.Linear(4, 3)

    def forward(self, x):
        return self.lin(self.ln(x))


def tune():
    model = Tune()
    model.load_state_dict({k: v for k, v in torch.load(DATA / "zoo.pt").items()
                           if k.startswith(("ln.", "lin."))})
    return model


def sgd_step(model, opt):
    (model(data(2, 4)) ** 2).mean().backward()
    opt.step()


def tune_params(model):
    return {"ln_weight": flat(model.ln.weight), "ln_bias": flat(model.ln.bias),
            "lin_weight": flat(model.lin.weight), "lin_bias": flat(model.lin.bias)}


@row
def freeze_module():
    model = tune()
    model.ln.requires_grad_(False)
    sgd_step(model, torch.optim.SGD(model.parameters(), lr=0.1))
    return {**tune_params(model), "ln_has_grad": model.ln.weight.grad is not None}


@row
def freeze_param():
    model = tune()
    model.lin.bias.requires_grad_(False)
    sgd_step(model, torch.optim.SGD(model.parameters(), lr=0.1))
    return {**tune_params(model), "bias_has_grad": model.lin.bias.grad is not None}


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)

    def forward(self, x):
        return self.bn(self.conv(x))


@row
def freeze_batchnorm():
    model = Backbone()
    model.load_state_dict({k: v for k, v in torch.load(DATA / "zoo.pt").items()
                           if k.startswith(("conv.", "bn."))})
    model.train()
    model.bn.eval()
    model.bn.requires_grad_(False)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    y = model(data(2, 2, 4, 4))
    (y ** 2).mean().backward()
    opt.step()
    return {"y": flat(y), "conv_weight": flat(model.conv.weight), "bn_weight": flat(model.bn.weight),
            "running_mean": flat(model.bn.running_mean), "running_var": flat(model.bn.running_var)}


@row
def finetune_lr_groups():
    model = tune()
    opt = torch.optim.SGD([{"params": model.ln.parameters(), "lr": 0.01},
                           {"params": model.lin.parameters()}], lr=0.1)
    sgd_step(model, opt)
    return tune_params(model)
