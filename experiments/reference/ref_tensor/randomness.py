"""随机数：ref-1-tensor/randomness.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def seed_repeat():
    torch.manual_seed(42)
    a = torch.rand(1000)
    torch.manual_seed(42)
    b = torch.rand(1000)
    return {"same_seed_equal": bool(torch.equal(a, b)), "shape": list(a.shape)}


@row
def seed_values():
    torch.manual_seed(42)
    return out(torch.rand(4))


@row
def rand():
    torch.manual_seed(0)
    t = torch.rand(10000)
    return {"min_ge_0": bool(t.min() >= 0), "max_lt_1": bool(t.max() < 1),
            "mean": float(t.double().mean()), "shape": list(t.shape), "dtype": dtype(t)}


@row
def randn():
    torch.manual_seed(0)
    t = torch.randn(10000)
    return {"mean": float(t.double().mean()), "std": float(t.double().std()),
            "shape": list(t.shape), "dtype": dtype(t)}


@row
def randperm():
    torch.manual_seed(0)
    p = torch.randperm(10)
    return {"sorted": [int(v) for v in p.sort().values], "moved": bool((p != torch.arange(10)).any()),
            "shape": list(p.shape)}


@row
def randint():
    torch.manual_seed(0)
    t = torch.randint(0, 10, (1000,))
    return {"min": int(t.min()), "max": int(t.max()), "shape": list(t.shape)}


@row
def randn_like():
    torch.manual_seed(0)
    t = torch.randn_like(data(2, 3))
    return {"shape": list(t.shape), "dtype": dtype(t)}
