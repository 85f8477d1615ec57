"""混合精度：ref-5-store/mixed_precision.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
