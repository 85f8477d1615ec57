"""The torch → burn map, tensor rows: one function per row of ref-1-tensor.yaml's table.

Most rows return {"v": the values, flattened, "shape": the shape}; some add keys (a dtype, a
second output, a flag). The inputs are the same numbers on both sides: X[k] = 0.5·sin(k + 1),
computed in f64 and rounded to f32 once. NaN and ±inf travel as the strings "nan", "inf",
"-inf" (JSON has no such numbers; the crate writes the same strings).
"""
import json
import math

import numpy as np
import torch
import torch.nn.functional as F

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def dtype(t):
    return str(t.dtype).removeprefix("torch.")


def vals(t):
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [num(x) for x in t.double().flatten().tolist()]


def out(t, **more):
    return {"v": vals(t), "shape": list(t.shape), **more}


def parts(ts):
    # A list of tensors (split, chunk): every part's values and shape.
    return {"v": [vals(t) for t in ts], "shape": [list(t.shape) for t in ts]}


# Values on the .5 boundaries (and two that are not), for the rounding rows.
HALVES = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.7, 2.7]
WITH_NAN = [0.3, float("nan"), 0.9, -0.2]


# ---- 创建 ----
@row
def from_data():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    return out(t, dtype=dtype(t))


@row
def zeros():
    t = torch.zeros(2, 3)
    return out(t, dtype=dtype(t))


@row
def ones():
    t = torch.ones(2, 3)
    return out(t, dtype=dtype(t))


@row
def full():
    return out(torch.full((2, 3), 7.0))


@row
def arange_int():
    return out(torch.arange(5))


@row
def long_tensor():
    return out(torch.LongTensor([3, 0, 2]))


@row
def arange_dtype():
    return {"dtype": dtype(torch.arange(5))}


@row
def arange_i64():
    t = torch.arange(5)
    return {"v": vals(t), "dtype": dtype(t)}


@row
def arange_step():
    return out(torch.arange(0, 10, 3))


@row
def arange_float():
    t = torch.arange(0.0, 1.0, 0.25)
    return out(t, dtype=dtype(t))


@row
def linspace():
    return out(torch.linspace(0.0, 1.0, 5))


@row
def eye():
    return out(torch.eye(3))


@row
def zeros_like():
    return out(torch.zeros_like(data(2, 3)))


@row
def ones_like():
    return out(torch.ones_like(data(2, 3)))


@row
def full_like():
    return out(torch.full_like(data(2, 3), -1.5))


@row
def empty():
    t = torch.empty(2, 3)
    return {"shape": list(t.shape), "dtype": dtype(t)}


# ---- 随机数 ----
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
def randint():
    torch.manual_seed(0)
    t = torch.randint(0, 10, (1000,))
    return {"min": int(t.min()), "max": int(t.max()), "shape": list(t.shape)}


@row
def randn_like():
    torch.manual_seed(0)
    t = torch.randn_like(data(2, 3))
    return {"shape": list(t.shape), "dtype": dtype(t)}


# ---- 形状 ----
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


# ---- 索引与掩码 ----
GATHER_IDX = [[0, 2], [1, 1], [3, 0]]


@row
def gather():
    return out(data(3, 4).gather(1, torch.tensor(GATHER_IDX)))


@row
def scatter():
    x = torch.zeros(3, 4)
    return out(x.scatter(1, torch.tensor([[0, 2], [1, 3], [3, 0]]), data(3, 2)))


@row
def scatter_add():
    x = torch.zeros(2, 3)
    return out(x.scatter_add(1, torch.tensor([[1, 1], [0, 2]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))


@row
def index_select():
    return out(data(4, 3).index_select(0, torch.tensor([2, 0, 2])))


@row
def index_add():
    x = torch.zeros(4, 3)
    return out(x.index_add(0, torch.tensor([0, 2, 0]), data(3, 3)))


@row
def masked_fill():
    x = data(3, 4)
    return out(x.masked_fill(x > 0, 0.0))


@row
def masked_select():
    x = data(3, 4)
    return out(x.masked_select(x > 0))


@row
def where():
    a, b = data(3, 4), data(3, 4) * 10
    return out(torch.where(a > 0, a, b))


@row
def tril():
    return out(torch.tril(data(4, 4)))


@row
def triu():
    return out(torch.triu(data(4, 4), 1))


@row
def nonzero():
    return out(torch.nonzero(data(3, 4) > 0.2))


@row
def nonzero_tuple():
    return parts(torch.nonzero(data(3, 4) > 0.2, as_tuple=True))


@row
def take():
    return out(torch.take(data(3, 4), torch.tensor([0, 5, 11])))


# ---- 逐元素运算 ----
@row
def add_broadcast():
    return out(data(3, 1) + data(1, 4))


@row
def add_rank():
    return out(data(3, 4) + data(4))


@row
def arith_scalar():
    return out((data(3, 4) - 1) * 3 / 2)


@row
def pow_int():
    return out(data(3, 4).pow(3))


@row
def pow_float():
    return out(data(3, 4).abs().pow(0.5))


@row
def pow_neg_base():
    # A negative base to a float power that is an integer: torch gives the real result.
    return out(torch.tensor([-0.5, -2.0, 3.0]).pow(3.0))


@row
def sqrt():
    return out(data(3, 4).abs().sqrt())


@row
def exp():
    return out(data(3, 4).exp())


@row
def log():
    return out(data(3, 4).abs().log())


@row
def log1p():
    return out(data(3, 4).log1p())


@row
def abs():
    return out(data(3, 4).abs())


@row
def neg():
    return out(-data(3, 4))


@row
def sign():
    return out(torch.sign(torch.tensor([-0.5, 0.0, 2.0, -3.0])))


@row
def clamp():
    return out(data(3, 4).clamp(-0.2, 0.3))


@row
def floor():
    return out(torch.tensor(HALVES).floor())


@row
def ceil():
    return out(torch.tensor(HALVES).ceil())


@row
def round():
    return out(torch.tensor(HALVES).round())


@row
def trunc():
    return out(torch.tensor(HALVES).trunc())


@row
def remainder():
    return out(torch.remainder(data(3, 4), 0.3))


@row
def remainder_neg():
    return out(torch.remainder(data(3, 4), -0.3))


@row
def fmod():
    return out(torch.fmod(data(3, 4), 0.3))


@row
def reciprocal():
    return out(data(3, 4).reciprocal())


@row
def sin_cos():
    x = data(3, 4)
    return {"sin": vals(x.sin()), "cos": vals(x.cos())}


@row
def tanh():
    return out(data(3, 4).tanh())


@row
def erf():
    return out(torch.erf(data(3, 4)))


# ---- 比较 ----
def pair():
    a = data(2, 4)
    b = a.clone()
    b[0, 1] = 0.0
    b[1, 2] = 1.0
    return a, b


@row
def eq():
    a, b = pair()
    return out(a.eq(b))


@row
def ne():
    a, b = pair()
    return out(a.ne(b))


@row
def gt():
    a, b = pair()
    return out(a.gt(b))


@row
def ge():
    a, b = pair()
    return out(a.ge(b))


@row
def lt():
    a, b = pair()
    return out(a.lt(b))


@row
def le():
    a, b = pair()
    return out(a.le(b))


@row
def gt_scalar():
    return out(data(3, 4) > 0)


@row
def isnan():
    return out(torch.tensor([1.0, float("nan"), float("inf"), -float("inf")]).isnan())


@row
def isinf():
    return out(torch.tensor([1.0, float("nan"), float("inf"), -float("inf")]).isinf())


@row
def any_all():
    m = data(3, 4) > 0
    return {"any": bool(m.any()), "all": bool(m.all())}


@row
def any_dim():
    return out((data(3, 4) > 0.4).any(dim=1, keepdim=True))


@row
def maximum():
    return out(torch.maximum(data(3, 4), data(3, 4).flip(0)))


@row
def minimum():
    return out(torch.minimum(data(3, 4), data(3, 4).flip(0)))


@row
def maximum_nan():
    return out(torch.maximum(torch.tensor(WITH_NAN), torch.zeros(4)))


@row
def max_nan():
    return {"max": num(torch.tensor(WITH_NAN).max())}


@row
def min_nan():
    return {"min": num(torch.tensor(WITH_NAN).min())}


@row
def argmax_nan():
    return {"argmax": int(torch.tensor(WITH_NAN).argmax())}


# ---- 归约 ----
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


# ---- 矩阵乘 ----
@row
def matmul_2d():
    return out(data(3, 4) @ data(4, 2))


@row
def bmm():
    return out(torch.bmm(data(2, 3, 4), data(2, 4, 5)))


@row
def matmul_bcast():
    return out(data(2, 3, 4) @ data(1, 4, 5))


@row
def matmul_3d_2d():
    return out(data(2, 3, 4) @ data(4, 5))


@row
def dot():
    return {"v": float(torch.dot(data(4), data(4) * 2))}


# ---- dtype 与设备 ----
@row
def to_double():
    t = data(2, 3).double()
    return out(t, dtype=dtype(t))


@row
def to_long():
    t = torch.tensor(HALVES).long()
    return out(t, dtype=dtype(t))


@row
def to_long_i64():
    t = torch.tensor(HALVES).long()
    return out(t, dtype=dtype(t))


@row
def int_to_float():
    t = torch.arange(4).float()
    return out(t, dtype=dtype(t))


@row
def to_bool():
    return out(torch.tensor([0.0, -0.5, 2.0, 0.0]).bool())


@row
def to_device():
    return out(data(2, 3).to("cpu"))


@row
def f16_roundtrip():
    return out(data(3, 4).half().float())


@row
def bf16_roundtrip():
    return out(data(3, 4).bfloat16().float())


# ---- 与主机数据 ----
@row
def from_list():
    v = [0.5 * math.sin(k + 1) for k in range(6)]
    return out(torch.tensor(v, dtype=torch.float32).reshape(2, 3))


@row
def from_numpy():
    a = np.array([0.5 * math.sin(k + 1) for k in range(6)], dtype=np.float32).reshape(2, 3)
    return out(torch.from_numpy(a))


@row
def tolist():
    return {"v": data(2, 3).tolist()}


@row
def tolist_nested():
    return {"v": data(2, 3).tolist()}


@row
def numpy_flat():
    return {"v": [float(x) for x in data(2, 3).numpy().ravel()]}


@row
def item():
    return {"v": data(3, 4).sum().item()}


@row
def item_int():
    return {"v": torch.arange(5).sum().item()}


# ---- 复制与就地运算：burn 的张量没有就地修改，就地的写法都是重新绑定

@row
def device_default():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return out(torch.tensor([1.0, 2.0, 3.0], device=device).cpu())


@row
def clone():
    return out(data(2, 3).clone())


@row
def new_zeros():
    return out(data(2, 3).new_zeros(2, 5))


@row
def expand_as():
    return out(data(3, 1).expand_as(data(3, 4)))


@row
def add_inplace():
    x = data(2, 3)
    x.add_(data(2, 3) * 2.0)
    return out(x)


@row
def mul_inplace():
    x = data(2, 3)
    x.mul_(0.5)
    return out(x)


@row
def copy_inplace():
    x = data(2, 3)
    x.copy_(-data(2, 3))
    return out(x)


print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
