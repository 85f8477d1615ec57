"""创建与随机：ref-7-ops/creation_random.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


LABELS = [2, 0, 3, 1, 2]


@row
def one_hot():
    return out(F.one_hot(torch.tensor(LABELS), 4))


@row
def one_hot_infer():
    return out(F.one_hot(torch.tensor(LABELS)))


@row
def meshgrid_ij():
    a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([10.0, 20.0])
    xs, ys = torch.meshgrid(a, b, indexing="ij")
    return {"y": [vals(xs), vals(ys)], "shape": [list(xs.shape), list(ys.shape)]}


@row
def meshgrid_xy():
    a, b = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([10.0, 20.0])
    xs, ys = torch.meshgrid(a, b, indexing="xy")
    return {"y": [vals(xs), vals(ys)], "shape": [list(xs.shape), list(ys.shape)]}


@row
def randn_generator():
    a = torch.randn(4000, generator=torch.Generator().manual_seed(0))
    b = torch.randn(4000, generator=torch.Generator().manual_seed(0))
    return {"same_seed_equal": bool(torch.equal(a, b)), "mean": float(a.double().mean()),
            "std": float(a.double().std()), "shape": list(a.shape),
            "dtype": str(a.dtype).removeprefix("torch.")}


@row
def multinomial():
    torch.manual_seed(0)
    fixed = torch.multinomial(torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), 4, replacement=True)
    s = torch.multinomial(torch.tensor([0.2, 0.5, 0.3]), 20000, replacement=True)
    freq = [float((s == c).double().mean()) for c in range(3)]
    return {"fixed": vals(fixed), "freq": freq, "shape": list(fixed.shape)}


W4 = [[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]]


@row
def multinomial_no_replacement():
    # Without replacement, 4 draws out of 4 categories are a permutation: sorted, 0 1 2 3.
    torch.manual_seed(0)
    s = torch.multinomial(torch.tensor(W4), 4)
    return {"sorted": vals(s.sort(dim=1).values), "shape": list(s.shape)}


@row
def multinomial_gumbel():
    torch.manual_seed(0)
    s = torch.multinomial(torch.tensor(W4), 4)
    return {"sorted": vals(s.sort(dim=1).values), "shape": list(s.shape)}
