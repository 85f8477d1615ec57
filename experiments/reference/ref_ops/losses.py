"""损失：ref-7-ops/losses.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def cross_entropy_functional():
    x = leaf(grid(lambda k: 2.0 * math.sin(k), 4, 3))
    loss = F.cross_entropy(x, torch.tensor([2, 0, 1, 2]))
    loss.backward()
    return {"loss": vals(loss), "dx": vals(x.grad)}


@row
def kl_div_functional():
    x = leaf(grid(lambda k: 2.0 * math.sin(k), 4, 3))
    q = F.softmax(coef(4, 3) * 3.0, dim=1)
    loss = F.kl_div(F.log_softmax(x, dim=1), q, reduction="batchmean")
    loss.backward()
    return {"loss": vals(loss), "dx": vals(x.grad)}


@row
def bce_soft():
    # A VAE's reconstruction term: probabilities against pixel values in [0, 1].
    p = leaf(grid(lambda k: 1.0 / (1.0 + math.exp(-2.0 * math.sin(k))), 2, 6))
    target = grid(lambda k: 0.5 + 0.45 * math.cos(k), 2, 6)
    loss = F.binary_cross_entropy(p, target, reduction="sum")
    loss.backward()
    return {"loss": vals(loss), "dx": vals(p.grad)}
