"""The torch → burn map, rows of modules, initialisers, schedulers, data utilities and
training-loop APIs that real training scripts call; one function per row of
ref-8-modules.yaml's table.

Every tensor is deterministic: element k of a tensor with phase p is 0.5·sin(k + 1 + p),
computed in f64 and rounded to f32 once (the same numbers as crates/ref-modules). Module
weights are set by hand in PyTorch's layout; backward rows use L = sum(y · G) with G of phase
50, so that dx and dw are not all ones. Rows about random draws compare what does not depend
on the generator (shapes, bounds, moments, index sets).
"""
import contextlib
import io
import json
import math
import os
import tempfile

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import (ConcatDataset, DataLoader, Dataset, Subset, TensorDataset,
                              WeightedRandomSampler, random_split)

ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def flat(t):
    t = t.detach()
    if t.dtype == torch.bool:
        return t.flatten().tolist()
    if not t.is_floating_point():
        return [int(x) for x in t.flatten().tolist()]
    return [float(x) for x in t.flatten().tolist()]


def setp(p, phase):
    with torch.no_grad():
        p.copy_(data(*p.shape, phase=phase))


def backward(y):
    (y * data(*y.shape, phase=50.0)).sum().backward()


def leaf(t):
    return t.clone().requires_grad_(True)


def run(m, x):
    """Forward and backward of a module with weight (and bias): y, dx, dw, db."""
    x = leaf(x)
    y = m(x)
    backward(y)
    out = {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}
    if getattr(m, "weight", None) is not None:
        out["dw"] = flat(m.weight.grad)
    if getattr(m, "bias", None) is not None:
        out["db"] = flat(m.bias.grad)
    return out


def causal(n):
    return torch.triu(torch.ones(n, n, dtype=torch.bool), 1)  # True = may not attend


# ---- Transformer 解码器 ----

def set_mha(m, base):
    setp(m.in_proj_weight, base + 10.0)
    setp(m.in_proj_bias, base + 20.0)
    setp(m.out_proj.weight, base + 30.0)
    setp(m.out_proj.bias, base + 40.0)


def decoder_layer(norm_first=False, base=0.0):
    m = nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0, batch_first=True,
                                   norm_first=norm_first)
    set_decoder_layer(m, base)
    return m


def set_decoder_layer(m, base):
    set_mha(m.self_attn, base)
    set_mha(m.multihead_attn, base + 40.0)
    setp(m.linear1.weight, base + 90.0)
    setp(m.linear1.bias, base + 100.0)
    setp(m.linear2.weight, base + 110.0)
    setp(m.linear2.bias, base + 120.0)
    for i, norm in enumerate([m.norm1, m.norm2, m.norm3]):
        setp(norm.weight, base + 130.0 + 20.0 * i)
        setp(norm.bias, base + 140.0 + 20.0 * i)


def run_decoder(m, first_layer):
    tgt = leaf(data(2, 3, 4) * 2)
    mem = leaf(data(2, 5, 4, phase=5.0) * 2)
    m.eval()
    y = m(tgt, mem, tgt_mask=causal(3))
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(tgt.grad), "grad_memory": flat(mem.grad),
            "dw": flat(first_layer.linear1.weight.grad)}


@row
def transformer_decoder_layer():
    m = decoder_layer()
    return run_decoder(m, m)


@row
def transformer_decoder():
    layer = nn.TransformerDecoderLayer(4, 2, dim_feedforward=6, dropout=0.0, batch_first=True)
    m = nn.TransformerDecoder(layer, num_layers=2)
    for i, l in enumerate(m.layers):
        set_decoder_layer(l, 200.0 * i)
    return run_decoder(m, m.layers[0])


@row
def transformer_decoder_norm_first():
    m = decoder_layer(norm_first=True)
    return run_decoder(m, m)


@row
def transformer_decoder_norm_first_by_name():
    m = decoder_layer(norm_first=True)
    m.eval()
    with torch.no_grad():
        y = m(data(2, 3, 4) * 2, data(2, 5, 4, phase=5.0) * 2, tgt_mask=causal(3))
    return {"y": flat(y), "shape": list(y.shape)}


@row
def transformer_encoder_stack():
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, batch_first=True)
    m = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    for i, l in enumerate(m.layers):
        b = 200.0 * i
        set_mha(l.self_attn, b)
        setp(l.linear1.weight, b + 50.0)
        setp(l.linear1.bias, b + 60.0)
        setp(l.linear2.weight, b + 70.0)
        setp(l.linear2.bias, b + 80.0)
        setp(l.norm1.weight, b + 90.0)
        setp(l.norm1.bias, b + 100.0)
        setp(l.norm2.weight, b + 110.0)
        setp(l.norm2.bias, b + 120.0)
    m.eval()
    x = leaf(data(2, 3, 4) * 2)
    y = m(x, mask=causal(3), is_causal=True)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad),
            "dw": flat(m.layers[0].linear1.weight.grad)}


# ---- 卷积、池化与其他层 ----

@row
def conv_transpose1d():
    m = nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1, output_padding=1)
    setp(m.weight, 10.0)  # [in, out, k]
    setp(m.bias, 20.0)
    return run(m, data(2, 2, 5))


@row
def maxpool1d():
    return run(nn.MaxPool1d(3, stride=2, padding=1), data(2, 2, 7))


@row
def avgpool1d():
    return run(nn.AvgPool1d(3, stride=2, padding=1), data(2, 2, 7))


@row
def adaptive_avg_pool1d():
    return run(nn.AdaptiveAvgPool1d(3), data(2, 2, 7))


@row
def upsample_nearest():
    return run(nn.Upsample(scale_factor=2, mode="nearest"), data(1, 2, 3, 4))


@row
def upsample_bilinear():
    return run(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False), data(1, 2, 3, 4))


@row
def flatten():
    return run(nn.Flatten(), data(2, 3, 2, 2))


@row
def identity():
    return run(nn.Identity(), data(2, 3))


@row
def cosine_similarity():
    x1, x2 = leaf(data(3, 4)), leaf(data(3, 4, phase=10.0))
    y = nn.CosineSimilarity(dim=1)(x1, x2)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x1.grad), "grad_x2": flat(x2.grad)}


# ---- 归一化与 Dropout ----

@row
def dropout2d():
    torch.manual_seed(0)
    m = nn.Dropout2d(0.5)
    y = m.train()(torch.ones(8, 16, 3, 3))
    per_channel = y.reshape(8, 16, 9)
    whole = bool((per_channel == per_channel[:, :, :1]).all())
    x = data(2, 3, 2, 2)
    return {"shape": list(y.shape), "values": sorted(set(flat(y))), "whole_channels": whole,
            "eval_identity": bool(torch.equal(m.eval()(x), x))}


@row
def rms_norm():
    m = nn.RMSNorm(4, eps=1e-5)
    setp(m.weight, 10.0)
    return run(m, data(2, 3, 4) * 2)


def small_rms(m):
    # Inputs about 1e-3: mean(x²) is about 1e-7, the size of the default eps.
    setp(m.weight, 10.0)
    with torch.no_grad():
        y = m(data(2, 3, 4) * 1e-3)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def rms_norm_default_eps():
    return small_rms(nn.RMSNorm(4))


@row
def rms_norm_default_eps_fix():
    return small_rms(nn.RMSNorm(4))


# ---- Embedding ----

def loaded_embedding():
    m = nn.Embedding(5, 3, padding_idx=0)
    setp(m.weight, 10.0)  # a checkpoint's weights: row 0 is not zero
    ids = torch.tensor([[0, 2, 4], [2, 0, 2]])
    y = m(ids)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dw": flat(m.weight.grad)}


@row
def embedding_padding_idx_grad():
    return loaded_embedding()


@row
def embedding_padding_idx_mask_loaded():
    return loaded_embedding()


# ---- 组合模块与参数 ----

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


# ---- 训练与推理模式 ----

class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)


@row
def num_params():
    return {"v": sum(p.numel() for p in Cnn().parameters())}


@row
def num_params_trainable():
    m = Cnn()
    before = sum(p.numel() for p in m.parameters() if p.requires_grad)
    m.conv.requires_grad_(False)
    after = sum(p.numel() for p in m.parameters() if p.requires_grad)
    return {"v": [before, after]}


def eval_model():
    m = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.BatchNorm1d(8), nn.Linear(8, 3))
    setp(m[0].weight, 10.0)
    setp(m[0].bias, 20.0)
    setp(m[2].weight, 30.0)
    setp(m[2].bias, 40.0)
    with torch.no_grad():
        m[2].running_mean.copy_(data(8, phase=60.0))
        m[2].running_var.copy_(data(8, phase=70.0).abs() + 0.5)
    setp(m[3].weight, 80.0)
    setp(m[3].bias, 90.0)
    return m


@row
def model_eval():
    m = eval_model()
    m.eval()
    y = m(data(4, 4) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def model_train_toggle():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5))
    setp(m[0].weight, 10.0)
    setp(m[0].bias, 20.0)
    x = data(8, 4) * 2
    m.eval()
    y_eval = m(x)
    m.train()
    y_train = m(x)
    kept = y_train != 0
    return {"y_eval": flat(y_eval),
            "train_drops": bool((~kept).any()),
            "train_kept_scaled": bool(torch.allclose(y_train[kept], 2 * y_eval[kept], atol=1e-6))}


# ---- 初始化 ----

def draws_stats(w, bound=None):
    v = w.detach().double().flatten()
    n = v.numel()
    mean = float(v.sum()) / n
    var = float(((v - mean) ** 2).sum()) / (n - 1)
    out = {"mean": mean, "std": math.sqrt(var)}
    if bound is not None:
        out["max_abs"] = float(v.abs().max())
        out["within_bound"] = bool(float(v.abs().max()) <= bound)
    return out


@row
def init_trunc_normal():
    torch.manual_seed(0)
    return draws_stats(nn.init.trunc_normal_(torch.empty(1024, 64), mean=0.0, std=1.0, a=-2.0, b=2.0), 2.0)


@row
def init_trunc_normal_std():
    torch.manual_seed(0)
    return draws_stats(nn.init.trunc_normal_(torch.empty(1024, 64), std=0.02))


@row
def init_orthogonal():
    torch.manual_seed(0)
    w = nn.init.orthogonal_(torch.empty(4, 6))
    return {"gram": flat(w @ w.T), "shape": list(w.shape)}


@row
def module_apply_init():
    def weights_init(m):
        if isinstance(m, nn.Conv2d):
            nn.init.normal_(m.weight, 0.0, 0.02)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.normal_(m.weight, 1.0, 0.02)
            nn.init.zeros_(m.bias)

    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(64, 128, 4, bias=False), nn.BatchNorm2d(4096))
    m.apply(weights_init)
    conv, bn = draws_stats(m[0].weight), draws_stats(m[1].weight)
    # The tail tells N(0, 0.02) from burn's default KaimingUniform (bounded by 1/32 here).
    beyond = float((m[0].weight.detach().abs() > 0.04).double().mean())
    return {"conv_mean": conv["mean"], "conv_std": conv["std"], "conv_beyond_2std": beyond,
            "bn_mean": bn["mean"], "bn_std": bn["std"], "bn_bias_zero": bool((m[1].bias == 0).all())}


@row
def named_parameters():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(4, 3), nn.Linear(3, 2)

    found = [(n, p.numel()) for n, p in Net().named_parameters()]
    return {"names": [n for n, _ in found], "numel": [k for _, k in found]}


@row
def module_map_init():
    # The same apply(weights_init); burn's side walks the model with Module::map.
    return module_apply_init()


# ---- 学习率调度 ----

def lr_sequence(make_sched, n=12, lr=0.1, momentum=0.0):
    """The lr each of n optimizer steps uses: optimizer.step(), then scheduler.step()."""
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=lr, momentum=momentum)
    sched = make_sched(optim)
    seq = []
    for _ in range(n):
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step()
    return {"lr": seq}


@row
def multistep_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[3, 7], gamma=0.1))


@row
def lambda_lr():
    # Linear warmup for 3 steps, then linear decay to 0 at step 12 (transformers'
    # get_linear_schedule_with_warmup).
    def f(s):
        return s / 3 if s < 3 else max(0.0, (12 - s) / (12 - 3))

    return lr_sequence(lambda o: torch.optim.lr_scheduler.LambdaLR(o, f))


@row
def one_cycle_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.OneCycleLR(
        o, max_lr=0.1, total_steps=20, pct_start=0.25), n=20, momentum=0.9)


@row
def reduce_lr_on_plateau():
    losses = [1.0, 0.9, 0.95, 0.96, 0.8, 0.85, 0.85, 0.79, 0.9, 0.9, 0.9, 0.9]
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(optim, factor=0.5, patience=1)
    seq = []
    for loss in losses:
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step(loss)
    return {"lr": seq}


@row
def cosine_warm_restarts():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=4, T_mult=2, eta_min=0.001))


@row
def sequential_lr():
    def make(o):
        warmup = torch.optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3)
        cosine = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=9, eta_min=0.001)
        return torch.optim.lr_scheduler.SequentialLR(o, [warmup, cosine], milestones=[3])

    return lr_sequence(make)


@row
def noam_lr():
    d_model, warmup = 16, 4
    return lr_sequence(lambda o: torch.optim.lr_scheduler.LambdaLR(
        o, lambda s: d_model ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5)), lr=1.0)


# ---- 数据集与采样 ----

def split_facts(parts):
    idx = [sorted(int(i) for i in p) for p in parts]
    union = sorted(i for p in idx for i in p)
    return {"lens": [len(p) for p in parts], "union": union,
            "disjoint": len(union) == len(set(union))}


@row
def random_split_lengths():
    parts = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(0))
    return split_facts(parts)


@row
def random_split_fractions():
    parts = random_split(range(10), [0.75, 0.25], generator=torch.Generator().manual_seed(0))
    return split_facts(parts)


@row
def subset():
    ds = Subset(list(range(10, 20)), [1, 3, 5, 7])
    return {"len": len(ds), "items": [ds[i] for i in range(len(ds))]}


@row
def concat_dataset():
    ds = ConcatDataset([list(range(4)), list(range(10, 13))])
    return {"len": len(ds), "items": [ds[i] for i in range(len(ds))]}


@row
def tensor_dataset():
    ds = TensorDataset(data(5, 3), torch.arange(5) * 10)
    x, y = ds[2]
    return {"len": len(ds), "x": flat(x), "y": int(y)}


class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return i, i * i


@row
def custom_dataset():
    ds = Squares()
    return {"len": len(ds), "items": [list(ds[i]) for i in range(len(ds))]}


@row
def weighted_random_sampler():
    n = 30000
    s = WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=n, replacement=True,
                              generator=torch.Generator().manual_seed(0))
    idx = torch.tensor(list(s))
    return {"len": len(idx), "fractions": [float((idx == k).sum()) / n for k in range(3)]}


@row
def dataloader_num_workers():
    loader = DataLoader(list(range(10)), batch_size=4, num_workers=2)
    batches = [[int(v) for v in b] for b in loader]
    return {"batches": sorted(batches), "n_batches": len(batches)}


@row
def pad_sequence():
    seqs = [data(3, 2), data(1, 2, phase=10.0), data(2, 2, phase=20.0)]
    y = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0.0)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def pack_padded_sequence():
    lstm = nn.LSTM(3, 4, batch_first=True)
    setp(lstm.weight_ih_l0, 10.0)
    setp(lstm.weight_hh_l0, 20.0)
    setp(lstm.bias_ih_l0, 30.0)
    setp(lstm.bias_hh_l0, 40.0)
    x = data(2, 5, 3) * 2
    lengths = torch.tensor([3, 5])
    packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    out, (h, c) = lstm(packed)
    y, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    return {"y": flat(y), "shape": list(y.shape), "h_n": flat(h), "c_n": flat(c)}


# ---- 训练循环 ----

def regression():
    return data(4, 4) * 2, data(4, 3, phase=60.0)


def small_linear():
    m = nn.Linear(4, 3)
    setp(m.weight, 10.0)
    setp(m.bias, 20.0)
    return m


@row
def train_step():
    m = small_linear()
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    x, t = regression()
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.mse_loss(m(x), t)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {"loss": losses, "w": flat(m.weight), "b": flat(m.bias)}


@row
def clip_grad_value_step():
    m = small_linear()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x, t = regression()
    for _ in range(2):
        opt.zero_grad()
        F.mse_loss(m(x), t).backward()
        nn.utils.clip_grad_value_(m.parameters(), 0.05)
        opt.step()
    return {"w": flat(m.weight), "b": flat(m.bias)}


@row
def gan_step():
    g, d = nn.Linear(2, 4), nn.Linear(4, 1)
    setp(g.weight, 10.0)
    setp(g.bias, 20.0)
    setp(d.weight, 30.0)
    setp(d.bias, 40.0)
    opt_g = torch.optim.Adam(g.parameters(), lr=0.01, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(d.parameters(), lr=0.01, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    real, z = data(4, 4, phase=70.0) * 2, data(4, 2, phase=80.0) * 2
    ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)
    for _ in range(2):
        fake = torch.tanh(g(z))
        opt_d.zero_grad()
        loss_d = bce(d(real), ones) + bce(d(fake.detach()), zeros)
        loss_d.backward()
        opt_d.step()
        opt_g.zero_grad()
        loss_g = bce(d(fake), ones)
        loss_g.backward()
        opt_g.step()
    return {"g_w": flat(g.weight), "g_b": flat(g.bias), "d_w": flat(d.weight), "d_b": flat(d.bias)}


# ---- 编译、导出与分布式 ----

def ddp_worker(rank, path, queue):
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method=f"file://{path}", rank=rank, world_size=2)
    m = small_linear()
    ddp = nn.parallel.DistributedDataParallel(m)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    x, t = regression()
    for _ in range(2):
        opt.zero_grad()
        # Each process gets its half of the batch.
        F.mse_loss(ddp(x[2 * rank:2 * rank + 2]), t[2 * rank:2 * rank + 2]).backward()
        opt.step()
    if rank == 0:
        queue.put({"w": flat(m.weight), "b": flat(m.bias)})
    dist.barrier()  # both processes are done before either closes its connections
    dist.destroy_process_group()


@row
def ddp():
    import torch.multiprocessing as mp
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    queue = mp.get_context("spawn").SimpleQueue()
    with tempfile.TemporaryDirectory() as d:
        mp.start_processes(ddp_worker, args=(os.path.join(d, "store"), queue), nprocs=2,
                           start_method="spawn")
    return queue.get()


def mlp():
    m = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3))
    setp(m[0].weight, 10.0)
    setp(m[0].bias, 20.0)
    setp(m[2].weight, 30.0)
    setp(m[2].bias, 40.0)
    return m.eval()


@row
def torch_compile():
    m = torch.compile(mlp())
    with torch.no_grad():
        y = m(data(2, 4) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def jit_script():
    m = torch.jit.script(mlp())
    with torch.no_grad():
        y = m(data(2, 4) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def onnx_export():
    from onnx.reference import ReferenceEvaluator
    x = data(2, 4) * 2
    with contextlib.redirect_stdout(io.StringIO()):  # the exporter prints its progress
        program = torch.onnx.export(mlp(), (x,), dynamo=True, verbose=False)
    ref = ReferenceEvaluator(program.model_proto)
    (y,) = ref.run(None, {ref.input_names[0]: x.numpy()})
    return {"y": [float(v) for v in y.flatten()], "shape": list(y.shape)}


if __name__ == "__main__":
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
