"""行列式与分解：ref-6-linalg/det_decomp.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def factors(**ts):
    # A decomposition: each factor's values under its name, and all the shapes.
    return {**{k: vals(t) for k, t in ts.items()}, "shape": [list(t.shape) for t in ts.values()]}


@row
def det():
    return out(torch.linalg.det(rough(2, 3, 3)))


@row
def det_4x4():
    return out(torch.linalg.det(rough(2, 4, 4)))


@row
def det_2d():
    torch.linalg.det(rough(3, 3))
    return {"panics": False}


@row
def det_2d_fix():
    return {"v": torch.linalg.det(rough(3, 3)).item()}


@row
def lu():
    p, l, u = torch.linalg.lu(rough(4, 4))
    return factors(p=p, l=l, u=u)


@row
def lu_tall():
    p, l, u = torch.linalg.lu(rough(4, 3))
    return factors(p=p, l=l, u=u)


@row
def qr():
    q, r = torch.linalg.qr(rough(4, 3))
    return factors(q=q, r=r)


@row
def qr_complete():
    q, r = torch.linalg.qr(rough(4, 3), mode="complete")
    return factors(q=q, r=r)


@row
def svd():
    u, s, vt = torch.linalg.svd(rough(4, 3), full_matrices=False)
    return factors(u=u, s=s, vt=vt)


@row
def svd_full():
    u, s, vt = torch.linalg.svd(rough(4, 3))
    return factors(u=u, s=s, vt=vt)


@row
def svdvals():
    return out(torch.linalg.svdvals(rough(4, 3)))
