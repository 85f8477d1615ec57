"""The torch → burn map, rows for PyTorch files and mixed precision: one function per row of
ref-5-store.yaml's table.

Three groups, each against files committed in crates/ref-store/data:
- 载入 PyTorch 的权重: zoo.pt, a state_dict that make_store_weights.py saved from Zoo (seeded
  init, then a few training-mode BatchNorm passes so its running stats are not 0 and 1). Both
  sides load this one file; forward and backward of each module are compared. ckpt.pt is a
  whole training checkpoint (epoch, a DataParallel model's state_dict, Adam's state_dict) that
  make_checkpoint() writes.
- checkpoint 与微调: each side saves and resumes in its own format; loading a subset, renamed
  keys, strict or not; freezing parameters.
- 导出给 PyTorch: small_export.safetensors, written by the burn program (make_store_weights.py
  runs it). PyTorch loads it with strict=True; its FNV hash must equal that of the file the
  burn program writes in this very run, so a stale copy fails the comparison.
- 混合精度: half-precision files and autocast on the CPU.
Inputs: element k of a tensor with phase p is 0.5·sin(k + 1 + p), rounded to f32 once.
"""
import json
import math
import re
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn

DATA = Path(__file__).resolve().parents[2] / "crates" / "ref-store" / "data"
ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def flat(t):
    return [float(x) for x in t.detach().float().flatten().tolist()]


def fnv(raw: bytes) -> str:
    h = 0xcbf29ce484222325
    for byte in raw:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


# region: zoo
class Zoo(nn.Module):
    """One module of each kind, under the field names the burn struct uses."""
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.convt = nn.ConvTranspose2d(3, 2, 3, stride=2)
        self.bn = nn.BatchNorm2d(3)
        self.ln = nn.LayerNorm(4)
        self.gn = nn.GroupNorm(2, 4)
        self.emb = nn.Embedding(5, 3)
        self.lstm = nn.LSTM(3, 4, batch_first=True)
# endregion: zoo


def make_zoo():
    """What make_store_weights.py saves: seeded default init, non-trivial norm affines and
    BatchNorm statistics from two training-mode passes."""
    torch.manual_seed(0)
    zoo = Zoo()
    with torch.no_grad():
        for norm in (zoo.bn, zoo.ln, zoo.gn):
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.uniform_(-0.5, 0.5)
        zoo.bn.train()
        for _ in range(2):
            zoo.bn(torch.randn(4, 3, 5, 5) * 2 + 1)
    return zoo


class Net(nn.Module):
    """What a training script checkpoints: one Linear, trained a few Adam steps."""
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x):
        return self.lin(x)


def make_checkpoint():
    """What make_store_weights.py saves as ckpt.pt: a training checkpoint written the way
    scripts do, from a model wrapped in nn.DataParallel (keys start with "module.")."""
    torch.manual_seed(1)
    model = nn.DataParallel(Net())
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(3):
        opt.zero_grad()
        (model(data(2, 4)) ** 2).mean().backward()
        opt.step()
    return {"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict()}


# region: small
class Small(nn.Module):
    """The model the burn program builds and exports."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.ln = nn.LayerNorm(5)
        self.lin = nn.Linear(5, 2)

    def forward(self, x):
        return self.lin(self.ln(self.bn(self.conv(x))))
# endregion: small


def loaded_zoo():
    # region: load_pt
    zoo = Zoo()
    zoo.load_state_dict(torch.load(DATA / "zoo.pt"))  # strict=True
    # endregion: load_pt
    return zoo


def run(m, x, *params):
    """Forward, then L = sum(y · G) (G of phase 50) backward: y, dx and each parameter's grad."""
    x = x.clone().requires_grad_(True)
    y = m(x)
    (y * data(*y.shape, phase=50.0)).sum().backward()
    out = {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}
    for name in params:
        out["d_" + name] = flat(getattr(m, name).grad)
    return out


# ---- 载入 PyTorch 的权重 ----

@row
def load_linear():
    return run(loaded_zoo().lin, data(2, 4), "weight", "bias")


@row
def load_conv2d():
    return run(loaded_zoo().conv, data(2, 2, 4, 4), "weight", "bias")


@row
def load_conv_transpose2d():
    return run(loaded_zoo().convt, data(1, 3, 3, 3), "weight", "bias")


@row
def load_batchnorm_eval():
    bn = loaded_zoo().bn.eval()
    with torch.no_grad():
        y = bn(data(2, 3, 4, 4) * 2)
    return {"y": flat(y), "running_mean": flat(bn.running_mean), "running_var": flat(bn.running_var)}


@row
def load_layernorm():
    return run(loaded_zoo().ln, data(2, 3, 4), "weight", "bias")


@row
def load_groupnorm():
    return run(loaded_zoo().gn, data(2, 4, 3), "weight", "bias")


@row
def load_embedding():
    emb = loaded_zoo().emb
    y = emb(torch.tensor([[0, 4, 2], [1, 1, 3]]))
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return {"y": flat(y), "d_weight": flat(emb.weight.grad)}


@row
def load_lstm():
    # Every parameter of the LSTM gets its value from the file; nothing is left over.
    zoo = Zoo()
    sd = torch.load(DATA / "zoo.pt")
    result = zoo.load_state_dict(sd, strict=False)
    filled = [k for k, v in zoo.lstm.state_dict().items() if torch.equal(v, sd["lstm." + k])]
    return {"filled": len(filled), "missing": len(result.missing_keys),
            "unused": sorted(result.unexpected_keys)}


@row
def load_lstm_split():
    lstm = loaded_zoo().lstm
    x = data(2, 3, 3).requires_grad_(True)
    y, _ = lstm(x)
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}


# ---- 导出给 PyTorch ----

def payload_fnv(raw: bytes) -> str:
    """FNV of the tensor bytes after the header (the header's __metadata__ is in no fixed
    order in burn's files: see save_twice_bytes)."""
    return fnv(raw[8 + int.from_bytes(raw[:8], "little"):])


def header(raw: bytes) -> dict:
    """The safetensors header: {name: [dtype, shape]} (the first 8 bytes are its length)."""
    n = int.from_bytes(raw[:8], "little")
    head = json.loads(raw[8:8 + n])
    return {k: [v["dtype"], v["shape"]] for k, v in sorted(head.items()) if k != "__metadata__"}


def expected_keys():
    """What load_state_dict(strict=True) wants, one "name dtype shape" line per tensor.
    torch's BatchNorm fills num_batches_tracked in itself when a file lacks it
    (_BatchNorm._load_from_state_dict), so an exported file need not carry it."""
    return [f"{k} F32 " + "x".join(map(str, v.shape)) for k, v in sorted(Small().state_dict().items())
            if not k.endswith("num_batches_tracked")]


@row
def export_keys():
    return {"tensors": expected_keys()}


@row
def export_forward():
    raw = (DATA / "small_export.safetensors").read_bytes()
    # region: export_load
    small = Small()
    result = small.load_state_dict(load_file(DATA / "small_export.safetensors"))  # strict=True
    small.eval()
    with torch.no_grad():
        y = small(data(2, 2, 3, 5) * 2)
    # endregion: export_load
    assert not result.missing_keys and not result.unexpected_keys, result
    return {"payload_fnv": payload_fnv(raw), "y": flat(y)}


@row
def export_no_adapter():
    return {"tensors": expected_keys()}


def saved_twenty_times(tmp: Path) -> bool:
    state = Small().state_dict()
    files = []
    for i in range(20):
        save_file(state, tmp / f"twice{i}.safetensors")
        files.append((tmp / f"twice{i}.safetensors").read_bytes())
    return len(set(files)) == 1


@row
def save_twice_bytes():
    return {"identical": saved_twenty_times(Path("."))}


@row
def save_twice_clear_metadata():
    return {"identical": saved_twenty_times(Path("."))}


# ---- 混合精度 ----

def half_state():
    """model.half(): every floating-point tensor, BatchNorm's too, becomes float16. The weights
    are the ones burn exported, so the values can be compared too."""
    small = Small()
    small.load_state_dict(load_file(DATA / "small_export.safetensors"))
    state = small.half().state_dict()
    return {"dtypes": {k: str(v.dtype).removeprefix("torch.") for k, v in sorted(state.items())
                       if v.is_floating_point()},
            "values": {k: flat(v) for k, v in sorted(state.items()) if v.is_floating_point()}}


@row
def half_dtypes():
    return half_state()


@row
def half_dtypes_all():
    return half_state()


@row
def half_roundtrip():
    # f32 → f16 → f32: what a float16 checkpoint loaded into a float32 model holds.
    small = Small()
    small.load_state_dict(load_file(DATA / "small_export.safetensors"))
    return {k: flat(v.half().float()) for k, v in sorted(small.state_dict().items())
            if k in ("conv.weight", "lin.weight", "ln.weight")}


@row
def autocast_linear():
    lin = loaded_zoo().lin
    x = data(2, 4) * 2
    # region: autocast
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = lin(x)
    # endregion: autocast
    return {"dtype": str(y.dtype).removeprefix("torch."), "y": flat(y)}


@row
def grad_scaler():
    # GradScaler scales the loss, unscales the gradients before the step and skips steps with
    # inf/NaN: in float32 the parameters after a step are the plain step's.
    lin = loaded_zoo().lin
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    loss = (lin(data(2, 4)) ** 2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    return {"weight": flat(lin.weight), "bias": flat(lin.bias)}


# ---- checkpoint 与微调 ----

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


if __name__ == "__main__":
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
