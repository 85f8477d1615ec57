"""Dropout 与 Embedding：ref-3-nn/dropout_embedding.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def dropout_train():
    torch.manual_seed(0)  # random mask: seeded so that every run prints the same
    m = nn.Dropout(0.5)
    m.train()
    y = m(torch.ones(4, 8))
    return {"shape": list(y.shape), "values": sorted({float(v) for v in y.flatten().tolist()})}


@row
def dropout_eval():
    m = nn.Dropout(0.5)
    m.eval()
    x = data(4, 8)
    return {"identity": bool(torch.equal(m(x), x))}


@row
def dropout_kept_fraction():
    # Random: only the fraction of kept elements is compared (the row's tol); the generators
    # differ, so the masks do too. Seeded so that every run prints the same.
    torch.manual_seed(0)
    m = nn.Dropout(0.3)
    y = m(torch.ones(200, 500))
    return {"kept": float((y != 0).float().mean())}


@row
def dropout_default_p():
    torch.manual_seed(0)
    m = nn.Dropout()  # p=0.5
    y = m(torch.ones(4, 8))
    return {"p": m.p, "shape": list(y.shape), "values": sorted({float(v) for v in y.flatten().tolist()})}


@row
def embedding():
    m = weights(nn.Embedding(5, 3))
    ids = torch.tensor([[0, 2, 4], [2, 1, 2]])
    y = m(ids)
    (dw,) = backward(y, m.weight)
    return {"y": flat(y), "dw": dw, "shape": list(y.shape)}


@row
def embedding_padding_idx():
    m = weights(nn.Embedding(5, 3, padding_idx=0))
    with torch.no_grad():
        m.weight[0] = 0.0  # what padding_idx does at construction; weights() overwrote it
    ids = torch.tensor([[0, 2, 4], [2, 0, 2]])
    y = m(ids)
    (dw,) = backward(y, m.weight)
    return {"y": flat(y), "dw": dw, "shape": list(y.shape)}
