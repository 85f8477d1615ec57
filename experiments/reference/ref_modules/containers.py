"""组合模块与参数：ref-8-modules/containers.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def sequential():
    m = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    setp(m[0].weight, 10.0)
    setp(m[0].bias, 20.0)
    setp(m[2].weight, 30.0)
    setp(m[2].bias, 40.0)
    x = leaf(data(2, 4) * 2)
    y = m(x)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad), "dw": flat(m[0].weight.grad)}


@row
def module_dict():
    m = nn.ModuleDict(dict(enc=nn.Linear(4, 3), head=nn.Linear(3, 2)))
    setp(m["enc"].weight, 10.0)
    setp(m["enc"].bias, 20.0)
    setp(m["head"].weight, 30.0)
    setp(m["head"].bias, 40.0)
    x = leaf(data(2, 4) * 2)
    y = m["head"](F.relu(m["enc"](x)))
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad), "dw": flat(m["enc"].weight.grad)}


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


@row
def module_list():
    m = Stack()
    for i, l in enumerate(m.layers):
        setp(l.weight, 10.0 + 20.0 * i)
        setp(l.bias, 20.0 + 20.0 * i)
    x = leaf(data(2, 4) * 2)
    y = m(x)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad),
            "dw": flat(m.layers[1].weight.grad)}


class PosEmb(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(torch.zeros(1, 3, 4))

    def forward(self, x):
        return x + self.pos


@row
def parameter():
    m = PosEmb()
    setp(m.pos, 10.0)
    x = leaf(data(2, 3, 4))
    y = m(x)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad), "grad_pos": flat(m.pos.grad),
            "num_params": sum(p.numel() for p in m.parameters())}


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("mask", torch.tril(torch.ones(3, 3)), persistent=False)

    def forward(self, x):
        h = self.lin(x)
        return (h @ h.transpose(1, 2)) * self.mask


@row
def register_buffer():
    m = Masked()
    setp(m.lin.weight, 10.0)
    setp(m.lin.bias, 20.0)
    x = leaf(data(2, 3, 4))
    y = m(x)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad),
            "num_params": sum(p.numel() for p in m.parameters())}


@row
def weight_tying():
    emb = nn.Embedding(5, 4)
    head = nn.Linear(4, 5, bias=False)
    head.weight = emb.weight
    setp(emb.weight, 10.0)
    ids = torch.tensor([[0, 2, 4], [2, 1, 3]])
    y = head(emb(ids))
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dw": flat(emb.weight.grad),
            "num_params": sum(p.numel() for p in nn.ModuleList([emb, head]).parameters())}
