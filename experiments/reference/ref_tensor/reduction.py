"""归约：ref-1-tensor/reduction.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def sum_all():
    # Shapes as text ("[3, 1]"), so that the table shows them as they print.
    t = data(3, 4).sum()
    return {"v": vals(t), "shape": str(list(t.shape))}


@row
def mean_all():
    return {"v": float(data(3, 4).mean())}


@row
def sum_dim():
    return out(data(3, 4).sum(dim=1))


@row
def sum_dim_shape():
    return {"shape": str(list(data(3, 4).sum(dim=1).shape))}


@row
def argmax_dim_shape():
    return {"shape": str(list(data(3, 4).argmax(dim=1).shape))}


@row
def argmax_dim():
    return out(data(3, 4).argmax(dim=1))


@row
def sum_keepdim():
    return out(data(3, 4).sum(dim=1, keepdim=True))


@row
def sum_neg_dim():
    return out(data(3, 4).sum(dim=-1, keepdim=True))


@row
def mean_dim():
    return out(data(3, 4).mean(dim=0, keepdim=True))


@row
def max_dim():
    values, indices = data(3, 4).max(dim=1, keepdim=True)
    return {"values": vals(values), "indices": vals(indices), "shape": list(values.shape)}


@row
def argmax_ties():
    return {"argmax": int(torch.tensor([1.0, 3.0, 3.0, 2.0]).argmax())}


@row
def argmin_ties():
    return {"argmin": int(torch.tensor([2.0, 1.0, 1.0, 3.0]).argmin())}


@row
def min_dim():
    return out(data(3, 4).min(dim=0, keepdim=True).values)


@row
def var_default():
    return out(data(3, 4).var(dim=1))


@row
def var_unbiased0():
    return out(data(3, 4).var(dim=1, correction=0, keepdim=True))


@row
def std():
    return out(data(3, 4).std(dim=1, keepdim=True))


@row
def prod():
    return {"v": float(data(3, 4).prod())}


@row
def prod_dim():
    return out(data(3, 4).prod(dim=1, keepdim=True))


@row
def cumsum():
    return out(data(3, 4).cumsum(dim=1))


@row
def cumprod():
    return out(data(3, 4).cumprod(dim=1))


@row
def logsumexp():
    return out(torch.logsumexp(data(3, 4), dim=1, keepdim=True))


@row
def softmax():
    return out(F.softmax(data(3, 4), dim=1))


@row
def softmax_neg_dim():
    return out(F.softmax(data(2, 3, 4), dim=-1))


@row
def log_softmax():
    return out(F.log_softmax(data(3, 4), dim=1))


@row
def sort():
    values, indices = data(3, 4).sort(dim=1)
    return {"values": vals(values), "indices": vals(indices)}


@row
def topk():
    values, indices = data(3, 4).topk(2, dim=1)
    return {"values": vals(values), "indices": vals(indices)}
