"""The torch → burn map, the functional and tensor-op rows real training scripts call: one
function per row of ref-7-ops.yaml's table.

Inputs are the same numbers on both sides, computed in f64 and rounded to f32 once:
X[k] = 0.5·sin(k + 1) (data), C[k] = 0.5·cos(k + 1) (coef, also the weight G of the
gradient rows), W[k] = 0.5·sin(0.7·(k + 1) + 1) (wave). A gradient row returns the output
"y" and the gradient of sum(y·G) with respect to each input: "dx" for the main one, "dw",
"db", "grad_<name>" for the others. NaN and ±inf travel as "nan", "inf", "-inf".
"""
import json
import math
import warnings

import torch
import torch.nn.functional as F

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def grid(f, *shape):
    n = math.prod(shape)
    return torch.tensor([f(k + 1) for k in range(n)], dtype=torch.float32).reshape(shape)


def data(*shape):
    return grid(lambda k: 0.5 * math.sin(k), *shape)


def coef(*shape):
    return grid(lambda k: 0.5 * math.cos(k), *shape)


def wave(*shape):
    return grid(lambda k: 0.5 * math.sin(0.7 * k + 1.0), *shape)


def leaf(t):
    return t.clone().requires_grad_()


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def vals(t):
    t = t.detach()
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [num(x) for x in t.double().flatten().tolist()]


def out(t, **more):
    return {"y": vals(t), "shape": list(t.shape), **more}


def backward(y, **inputs):
    """y, and the gradient of sum(y·G) with respect to each named input (G = coef)."""
    (y * coef(*y.shape)).sum().backward()
    return {"y": vals(y), "shape": list(y.shape), **{k: vals(v.grad) for k, v in inputs.items()}}


# ---- 注意力 ----
def qkv(lq=3, lk=3):
    return leaf(data(1, 2, lq, 4)), leaf(coef(1, 2, lk, 4)), leaf(wave(1, 2, lk, 4))


@row
def sdpa():
    q, k, v = qkv()
    return backward(F.scaled_dot_product_attention(q, k, v), grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_causal():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_causal_kv():
    # 2 queries, 4 keys (a KV cache): PyTorch's causal mask is aligned at the top left.
    q, k, v = qkv(2, 4)
    return out(F.scaled_dot_product_attention(q, k, v, is_causal=True))


@row
def sdpa_causal_kv_mask():
    q, k, v = qkv(2, 4)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


# True = may attend; the last key is padding.
KEEP = torch.tensor([[True, True, False], [True, True, False], [True, True, False]])


@row
def sdpa_bool_mask_naive():
    q, k, v = qkv()
    return out(F.scaled_dot_product_attention(q, k, v, attn_mask=KEEP))


@row
def sdpa_bool_mask():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=KEEP)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_float_mask():
    q, k, v = qkv()
    # An additive bias, ALiBi-like: -0.5·|i - j|.
    bias = torch.tensor([[-0.5 * abs(i - j) for j in range(3)] for i in range(3)])
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_scale():
    q, k, v = qkv()
    y = F.scaled_dot_product_attention(q, k, v, scale=0.5)
    return backward(y, grad_q=q, grad_k=k, grad_v=v)


@row
def sdpa_masked_row():
    q, k, v = qkv()
    keep = torch.tensor([[True, False, False], [False, False, False], [True, True, True]])
    return out(F.scaled_dot_product_attention(q, k, v, attn_mask=keep))


# ---- 掩码 ----
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


# ---- 卷积与池化（函数式）----
@row
def conv1d_functional():
    x, w, b = leaf(data(2, 2, 7)), leaf(coef(3, 2, 3)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.conv1d(x, w, b, stride=2, padding=1), dx=x, dw=w, db=b)


@row
def conv2d_functional():
    x, w, b = leaf(data(1, 2, 5, 5)), leaf(coef(3, 2, 3, 3)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.conv2d(x, w, b, padding=1), dx=x, dw=w, db=b)


@row
def conv2d_functional_groups():
    x, w = leaf(data(1, 4, 6, 6)), leaf(coef(4, 2, 3, 3))
    return backward(F.conv2d(x, w, stride=2, padding=2, dilation=2, groups=2), dx=x, dw=w)


@row
def unfold():
    x = leaf(data(1, 2, 3, 4))
    return backward(F.unfold(x, kernel_size=2), dx=x)


@row
def fold():
    x = leaf(data(1, 8, 6))
    return backward(F.fold(x, output_size=(3, 4), kernel_size=2), dx=x)


@row
def pixel_shuffle():
    x = leaf(data(1, 8, 2, 3))
    return backward(F.pixel_shuffle(x, 2), dx=x)


@row
def pixel_unshuffle():
    return out(F.pixel_unshuffle(data(1, 2, 4, 6), 2))


@row
def max_pool2d_functional():
    x = leaf(data(1, 2, 4, 6))
    return backward(F.max_pool2d(x, 2), dx=x)


@row
def max_pool2d_indices():
    y, idx = F.max_pool2d(data(1, 2, 4, 6), 2, return_indices=True)
    return out(y, indices=vals(idx))


@row
def avg_pool2d_functional():
    x = leaf(data(1, 2, 5, 5))
    return backward(F.avg_pool2d(x, 3, stride=2, padding=1), dx=x)


@row
def adaptive_avg_pool2d_functional():
    x = leaf(data(2, 3, 4, 5))
    return backward(F.adaptive_avg_pool2d(x, 1), dx=x)


# ---- 函数式的层 ----
IDS = [[0, 2, 4], [4, 1, 0]]


@row
def embedding_functional():
    w = leaf(data(5, 3))
    return backward(F.embedding(torch.tensor(IDS), w), dw=w)


@row
def linear_functional_naive():
    x, w, b = data(2, 4), coef(4, 4), torch.tensor([0.1, -0.2, 0.3, 0.0])
    return out(F.linear(x, w, b))


@row
def linear_functional():
    x, w, b = leaf(data(2, 4)), leaf(coef(3, 4)), leaf(torch.tensor([0.1, -0.2, 0.3]))
    return backward(F.linear(x, w, b), dx=x, dw=w, db=b)


@row
def layer_norm_functional():
    x, w, b = leaf(data(3, 4)), leaf(1.0 + coef(4)), leaf(wave(4))
    return backward(F.layer_norm(x, (4,), w, b, eps=1e-5), dx=x, dw=w, db=b)


@row
def batch_norm_functional():
    x, w, b = leaf(data(4, 3)), leaf(1.0 + coef(3)), leaf(wave(3))
    rm, rv = torch.tensor([0.1, -0.1, 0.2]), torch.tensor([0.5, 1.5, 0.8])
    y = F.batch_norm(x, rm, rv, w, b, training=False, eps=1e-5)
    return backward(y, dx=x, dw=w, db=b)


@row
def rms_norm():
    x, w = leaf(data(3, 4)), leaf(1.0 + coef(4))
    return backward(F.rms_norm(x, (4,), w, eps=1e-6), dx=x, dw=w)


@row
def normalize():
    x = leaf(data(3, 4))
    return backward(F.normalize(x, dim=1), dx=x)


@row
def glu():
    x = leaf(data(3, 4))
    return backward(F.glu(x, dim=-1), dx=x)


# ---- 创建与随机 ----
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


# ---- 矩阵与距离 ----
@row
def einsum_bmm():
    a, b = leaf(data(2, 3, 4)), leaf(coef(2, 4, 5))
    return backward(torch.einsum("bij,bjk->bik", a, b), dx=a, grad_b=b)


@row
def einsum_attn():
    q, k = leaf(data(1, 2, 3, 4)), leaf(coef(1, 2, 5, 4))
    return backward(torch.einsum("bhqd,bhkd->bhqk", q, k), grad_q=q, grad_k=k)


@row
def baddbmm():
    c, a, b = data(2, 3, 5), coef(2, 3, 4), wave(2, 4, 5)
    return out(torch.baddbmm(c, a, b, beta=0.5, alpha=2.0))


@row
def addmm():
    bias, x, w = wave(5), data(3, 4), coef(4, 5)
    return out(torch.addmm(bias, x, w))


@row
def cdist():
    a, b = leaf(data(2, 3, 4)), leaf(coef(2, 5, 4))
    return backward(torch.cdist(a, b), dx=a, grad_b=b)


# ---- 逐元素与归约 ----
@row
def lerp():
    a, b = leaf(data(3, 4)), leaf(coef(3, 4))
    return backward(torch.lerp(a, b, 0.3), dx=a, grad_b=b)


@row
def var_mean():
    var, mean = torch.var_mean(data(3, 4), dim=1, keepdim=True)
    return {"var": vals(var), "mean": vals(mean), "shape": list(var.shape)}


SPECIAL = [0.5, float("nan"), float("inf"), -1.5, float("-inf"), 0.0]


@row
def nan_to_num():
    return out(torch.nan_to_num(torch.tensor(SPECIAL)))


@row
def nan_to_num_args():
    return out(torch.nan_to_num(torch.tensor(SPECIAL), nan=0.0, posinf=1.0, neginf=-1.0))


def close_pair():
    a = torch.tensor([1.0, 2.0, float("inf"), float("nan"), 1e-9, 100.0])
    b = torch.tensor([1.0 + 1e-6, 2.001, float("inf"), float("nan"), 0.0, 100.0005])
    return a, b


@row
def isclose():
    a, b = close_pair()
    return out(torch.isclose(a, b))


@row
def allclose():
    a, b = data(2, 3), data(2, 3) + 5e-4
    return {"default": torch.allclose(a, b), "atol_1e_3": torch.allclose(a, b, atol=1e-3)}


BOUNDS = [-0.25, 0.0, 0.25]
POINTS = [-0.5, -0.25, -0.1, 0.0, 0.1, 0.25, 0.4]


@row
def bucketize():
    return out(torch.bucketize(torch.tensor(POINTS), torch.tensor(BOUNDS)))


@row
def searchsorted():
    return out(torch.searchsorted(torch.tensor(BOUNDS), torch.tensor(POINTS)))


@row
def searchsorted_right():
    return out(torch.searchsorted(torch.tensor(BOUNDS), torch.tensor(POINTS), right=True))


@row
def clamp_min():
    return out(torch.clamp_min(data(3, 4), 0.1))


@row
def where_scalar():
    x = data(3, 4)
    return out(torch.where(x > 0, x, 0.0))


@row
def cummax():
    return out(torch.cummax(data(3, 4), dim=1).values)


@row
def argsort():
    return out(torch.argsort(data(3, 4), dim=1, descending=True))


@row
def logical_ops():
    a, b = data(3, 4) > 0, coef(3, 4) > 0
    return {"and": vals(torch.logical_and(a, b)), "or": vals(torch.logical_or(a, b)),
            "not": vals(torch.logical_not(a)), "shape": list(a.shape)}


@row
def square():
    return out(torch.square(data(3, 4)))


@row
def rsqrt():
    return out(torch.rsqrt(data(3, 4).abs() + 0.1))


# ---- 散布与去重 ----
SC_IDX = [[0, 1, 0, 2], [2, 2, 1, 0]]


@row
def scatter_reduce_sum():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="sum"))


@row
def scatter_reduce_amax():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="amax"))


@row
def scatter_reduce_mean():
    x, src = data(2, 3), coef(2, 4)
    return out(x.scatter_reduce(1, torch.tensor(SC_IDX), src, reduce="mean"))


TOKENS = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]


@row
def unique():
    return out(torch.unique(torch.tensor(TOKENS)))


@row
def unique_counts():
    u, c = torch.unique(torch.tensor(TOKENS), return_counts=True)
    return out(u, counts=vals(c))


# ---- 填充 ----
@row
def pad_constant():
    return out(F.pad(data(1, 2, 3), (1, 2, 0, 1), value=0.5))


@row
def pad_reflect():
    return out(F.pad(data(1, 1, 3, 4), (2, 2, 1, 1), mode="reflect"))


@row
def pad_replicate():
    return out(F.pad(data(1, 1, 3, 4), (1, 1, 2, 0), mode="replicate"))


@row
def pad_circular():
    return out(F.pad(data(1, 2, 5), (1, 2), mode="circular"))


# ---- 损失（函数式）----
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


# ---- VAE ----
@row
def vae_reparam():
    mu, logvar, eps = leaf(data(2, 3)), leaf(coef(2, 3)), wave(2, 3)
    z = mu + eps * torch.exp(0.5 * logvar)
    return backward(z, grad_mu=mu, grad_logvar=logvar)


@row
def vae_kl():
    mu, logvar = leaf(data(2, 3)), leaf(coef(2, 3))
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    kl.backward()
    return {"loss": vals(kl), "grad_mu": vals(mu.grad), "grad_logvar": vals(logvar.grad)}


# ---- 形状 ----
@row
def movedim():
    return out(torch.movedim(data(2, 3, 4), 1, -1))


@row
def unfold_dim():
    return out(data(2, 7).unfold(1, 3, 2))


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
