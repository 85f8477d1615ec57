"""dtype 与设备：ref-1-tensor/dtype_device.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def to_double():
    t = data(2, 3).double()
    return out(t, dtype=dtype(t))


@row
def to_long():
    t = torch.tensor(HALVES).long()
    return out(t, dtype=dtype(t))


@row
def to_long_i64():
    t = torch.tensor(HALVES).long()
    return out(t, dtype=dtype(t))


@row
def int_to_float():
    t = torch.arange(4).float()
    return out(t, dtype=dtype(t))


@row
def to_bool():
    return out(torch.tensor([0.0, -0.5, 2.0, 0.0]).bool())


@row
def to_device():
    return out(data(2, 3).to("cpu"))


@row
def f16_roundtrip():
    return out(data(3, 4).half().float())


@row
def bf16_roundtrip():
    return out(data(3, 4).bfloat16().float())


@row
def device_default():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return out(torch.tensor([1.0, 2.0, 3.0], device=device).cpu())
