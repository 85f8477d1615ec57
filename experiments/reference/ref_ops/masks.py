"""掩码：ref-7-ops/masks.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def causal_mask():
    return out(torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1))


@row
def causal_mask_naive():
    return out(torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1))


@row
def masked_fill_softmax():
    x = leaf(data(2, 4, 4))
    m = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
    y = F.softmax(x.masked_fill(m, float("-inf")), dim=-1)
    return backward(y, dx=x)
