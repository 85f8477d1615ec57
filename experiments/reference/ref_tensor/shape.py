"""形状：ref-1-tensor/shape.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def reshape():
    return out(data(3, 4).reshape(2, 6))


@row
def reshape_infer():
    return out(data(3, 4).reshape(-1, 6))


@row
def view():
    return out(data(3, 4).view(2, 6))


@row
def permute():
    return out(data(2, 3, 4).permute(2, 0, 1))


@row
def t_2d():
    return out(data(2, 3).T)


@row
def transpose_01():
    return out(data(2, 3, 4).transpose(0, 1))


@row
def size():
    return {"v": list(data(2, 3, 4).size())}


@row
def ndim():
    return {"v": data(2, 3, 4).dim()}


@row
def size_dim():
    return {"v": data(2, 3, 4).size(1)}


@row
def contiguous():
    return out(data(2, 3, 4).transpose(0, 1).contiguous())


@row
def mt_3d():
    return out(data(2, 3, 4).mT)


@row
def squeeze():
    return out(data(1, 3, 1, 4).squeeze())


@row
def squeeze_dim():
    return out(data(1, 3, 4).squeeze(0))


@row
def unsqueeze():
    return out(data(3, 4).unsqueeze(1))


@row
def unsqueeze_neg():
    return out(data(3, 4).unsqueeze(-1))


@row
def expand():
    return out(data(3, 1).expand(3, 4))


@row
def repeat():
    return out(data(2, 2).repeat(2, 3))


@row
def repeat_dim():
    return out(data(2, 2).repeat(3, 1))


@row
def repeat_interleave():
    return out(data(2, 2).repeat_interleave(2, dim=0))


@row
def cat():
    return out(torch.cat([data(2, 3), data(2, 3) * 2], dim=1))


@row
def stack():
    return out(torch.stack([data(2, 3), data(2, 3) * 2], dim=0))


@row
def split():
    return parts(data(2, 5).split(2, dim=1))


@row
def split_sizes():
    return parts(data(2, 5).split([1, 4], dim=1))


@row
def chunk():
    return parts(data(2, 7).chunk(3, dim=1))


@row
def chunk_uneven():
    # 6 columns into 4 chunks: torch makes chunks of ceil(6/4) = 2, so only 3 of them.
    return {"panics": False, "n_chunks": len(data(2, 6).chunk(4, dim=1))}


@row
def chunk_uneven_fix():
    return parts(data(2, 6).chunk(4, dim=1))


@row
def flatten():
    return out(data(2, 3, 4).flatten())


@row
def flatten_from():
    return out(data(2, 3, 4).flatten(1))


@row
def narrow():
    return out(data(3, 5).narrow(1, 1, 2))


@row
def slice_range():
    return out(data(3, 5)[:, 1:3])


@row
def slice_neg():
    return out(data(3, 5)[:, -2:])


@row
def slice_step():
    return out(data(3, 5)[:, ::2])


@row
def flip():
    return out(torch.flip(data(3, 4), [0]))


@row
def roll():
    return out(torch.roll(data(3, 4), 1, 1))
