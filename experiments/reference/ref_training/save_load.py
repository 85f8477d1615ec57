"""存取：ref-4-training/save_load.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
