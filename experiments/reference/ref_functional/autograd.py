"""自动求导：ref-2-functional/autograd.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def requires_grad():
    x = data(6).requires_grad_()
    (x * x).sum().backward()
    return {"require_grad": x.requires_grad, "grad": nums(x.grad)}


@row
def backward_scalar():
    x = data(2, 3).requires_grad_()
    f = (torch.tanh(x) * coef(2, 3)).sum()
    f.backward()
    return {"f": nums(f), "grad": nums(x.grad), "shape": list(x.grad.shape)}


@row
def backward_nonscalar():
    x = data(4).requires_grad_()
    y = x * x * x  # shape [4]; y.backward() alone raises here
    y.backward(torch.ones_like(y))
    return {"grad": nums(x.grad)}


@row
def constant_grad():
    x, c = data(3).requires_grad_(), coef(3)
    (x * c).sum().backward()
    return {"c_has_grad": c.grad is not None, "grad": nums(x.grad)}


@row
def autograd_grad():
    x = data(2, 3).requires_grad_()
    f = (torch.tanh(x) * coef(2, 3)).sum()
    (g,) = torch.autograd.grad(f, [x])
    return {"grad": nums(g), "grad_tracked": g.requires_grad}


@row
def grad_remove():
    x = data(3).requires_grad_()
    (x * x).sum().backward()
    g = x.grad
    x.grad = None
    return {"grad": nums(g), "after": x.grad is not None}


@row
def module_freeze():
    lin = linear()
    lin.requires_grad_(False)
    x = data(2, 3).requires_grad_()
    lin(x).sum().backward()
    return {"weight_require_grad": lin.weight.requires_grad,
            "weight_has_grad": lin.weight.grad is not None, "x_grad": nums(x.grad)}


@row
def nonleaf_grad():
    x = data(3).requires_grad_()
    y = x * 2.0
    (y * y).sum().backward()
    # torch warns on reading .grad of a non-leaf; the value is None all the same.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        has = y.grad is not None
    return {"y_has_grad": has, "x_grad": nums(x.grad)}


@row
def retain_grad():
    x = data(3).requires_grad_()
    y = x * 2.0
    y.retain_grad()
    (y * y).sum().backward()
    return {"x_grad": nums(x.grad), "y_grad": nums(y.grad)}


@row
def no_grad():
    w = data(3).requires_grad_()
    with torch.no_grad():
        y = w * coef(3)
    return {"v": nums(y), "tracked": y.requires_grad}


@row
def detach():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    z = y.detach()
    (y * z).sum().backward()
    return {"z_require_grad": z.requires_grad, "grad": nums(x.grad)}


@row
def requires_grad_false():
    x = data(3).requires_grad_().requires_grad_(False)
    y = x * x
    return {"require_grad": x.requires_grad, "tracked": y.requires_grad}
