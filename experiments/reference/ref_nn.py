"""The torch → burn map, nn module rows: one function per row of ref-3-nn.yaml's table.

Every module gets the same weights as on the burn side, set by hand in PyTorch's layout;
element k of a tensor with phase p is 0.5·sin(k + 1 + p), computed in f64 and rounded to f32
once. The input has phase 0, weights and biases other phases, and backward rows use
L = sum(y · G) with G of phase 50, so that dx and dw are not all ones.
"""
import json
import math

import torch
import torch.nn.functional as F
from torch import nn

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
    # Overwrite a parameter with the deterministic numbers, in PyTorch's own layout.
    with torch.no_grad():
        p.copy_(data(*p.shape, phase=phase))


def backward(y, *leaves):
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return [flat(t.grad) for t in leaves]


def run(m, x):
    """Forward and backward: y, dx, dw (and db when the module has a bias)."""
    x = x.clone().requires_grad_(True)
    y = m(x)
    out = {"y": flat(y), "shape": list(y.shape)}
    leaves = [x, m.weight] + ([m.bias] if getattr(m, "bias", None) is not None else [])
    grads = backward(y, *leaves)
    out["dx"], out["dw"] = grads[0], grads[1]
    if len(grads) > 2:
        out["db"] = grads[2]
    return out


def weights(m):
    # Every parameter, phase 10, 20, 30, ... in named_parameters() order.
    for i, (_, p) in enumerate(m.named_parameters()):
        setp(p, 10.0 * (i + 1))
    return m


# ---- 线性与卷积 ----

@row
def linear():
    return run(weights(nn.Linear(4, 3)), data(2, 4))


@row
def linear_nobias():
    return run(weights(nn.Linear(4, 3, bias=False)), data(2, 4))


@row
def conv1d():
    return run(weights(nn.Conv1d(2, 3, 3, stride=2, padding=1)), data(2, 2, 7))


@row
def conv2d():
    return run(weights(nn.Conv2d(2, 3, 3)), data(2, 2, 5, 5))


@row
def conv2d_nobias():
    m = weights(nn.Conv2d(2, 3, 3, bias=False))
    return dict(run(m, data(2, 2, 5, 5)), has_bias=m.bias is not None)


@row
def conv2d_stride_pad_dilation():
    return run(weights(nn.Conv2d(2, 4, 3, stride=2, padding=2, dilation=2)), data(1, 2, 7, 6))


@row
def conv2d_groups():
    return run(weights(nn.Conv2d(4, 6, 3, padding=1, groups=2)), data(1, 4, 4, 4))


@row
def conv2d_same_even_kernel():
    return run(weights(nn.Conv2d(2, 3, (2, 4), padding="same")), data(1, 2, 5, 6))


@row
def conv2d_same_stride2():
    try:
        m = nn.Conv2d(2, 3, 3, stride=2, padding="same")
        return {"runs": True, "y_shape": list(m(data(1, 2, 5, 5)).shape)}
    except ValueError:
        return {"runs": False, "y_shape": []}


@row
def conv2d_stride2_explicit_padding():
    return run(weights(nn.Conv2d(2, 3, 3, stride=2, padding=1)), data(1, 2, 5, 5))


@row
def conv2d_reflect():
    return run(weights(nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect")), data(1, 2, 4, 5))


@row
def conv_transpose2d():
    return run(weights(nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)),
               data(1, 2, 3, 4))


@row
def conv_transpose2d_nobias():
    m = weights(nn.ConvTranspose2d(2, 3, 4, stride=2, padding=1, bias=False))
    return dict(run(m, data(1, 2, 3, 4)), has_bias=m.bias is not None)


# ---- 池化 ----

def pool(m, x):
    x = x.clone().requires_grad_(True)
    y = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "dx": dx, "shape": list(y.shape)}


@row
def maxpool2d():
    return pool(nn.MaxPool2d(2), data(1, 2, 4, 6))


@row
def maxpool2d_padding():
    return pool(nn.MaxPool2d(3, stride=2, padding=1), data(1, 1, 5, 6))


@row
def maxpool2d_ceil_mode():
    return pool(nn.MaxPool2d(2, ceil_mode=True), data(1, 1, 5, 5))


@row
def avgpool2d_padding():
    return pool(nn.AvgPool2d(3, stride=2, padding=1), data(1, 1, 5, 6))


@row
def avgpool2d_exclude_pad():
    return pool(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False), data(1, 1, 5, 6))


@row
def avgpool2d_ceil_mode():
    return pool(nn.AvgPool2d(2, ceil_mode=True), data(1, 1, 5, 5))


@row
def avgpool2d_ceil_pad():
    return pool(nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True), data(1, 1, 6, 6))


@row
def adaptive_avg_pool2d():
    return pool(nn.AdaptiveAvgPool2d((3, 3)), data(1, 2, 5, 7))


# ---- 归一化 ----

def bn_train(m, x):
    x = x.clone().requires_grad_(True)
    m.train()
    y = m(x)
    dx, dg, db = backward(y, x, m.weight, m.bias)
    return y, dx, dg, db


@row
def batchnorm1d_train():
    y, dx, dg, db = bn_train(weights(nn.BatchNorm1d(3)), data(4, 3) * 3)
    return {"y": flat(y), "dx": dx, "dgamma": dg, "dbeta": db, "shape": list(y.shape)}


@row
def batchnorm2d_train():
    y, dx, dg, db = bn_train(weights(nn.BatchNorm2d(3)), data(2, 3, 2, 2) * 3)
    return {"y": flat(y), "dx": dx, "dgamma": dg, "shape": list(y.shape)}


@row
def batchnorm_running_mean():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)  # one training step: momentum 0.1
    return {"running_mean": flat(m.running_mean)}


@row
def batchnorm_running_var():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)
    return {"running_var": flat(m.running_var)}


@row
def batchnorm_running_var_unbiased():
    m = nn.BatchNorm1d(3)
    m(data(4, 3) * 3)  # running_var takes the unbiased batch variance (n - 1)
    return {"running_var": flat(m.running_var)}


@row
def batchnorm_momentum_none():
    m = nn.BatchNorm1d(3, momentum=None)  # cumulative average over the batches seen
    for t in range(3):
        m(data(4, 3, phase=10.0 * t) * 3)
    return {"running_mean": flat(m.running_mean)}


@row
def batchnorm2d_eval():
    m = weights(nn.BatchNorm2d(3))
    with torch.no_grad():
        m.running_mean.copy_(data(3, phase=60.0))
        m.running_var.copy_(data(3, phase=70.0).abs() + 0.5)
    m.eval()
    y = m(data(2, 3, 2, 2))
    return {"y": flat(y), "shape": list(y.shape)}


@row
def layernorm():
    return run(weights(nn.LayerNorm(4)), data(2, 3, 4) * 2)


@row
def groupnorm():
    return run(weights(nn.GroupNorm(2, 4)), data(2, 4, 3) * 2)


@row
def instancenorm():
    m = nn.InstanceNorm2d(3)  # affine=False: no weight, no bias
    x = (data(2, 3, 3, 4) * 2).requires_grad_(True)
    y = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "shape": list(y.shape), "dx": dx}


@row
def instancenorm_affine():
    return run(weights(nn.InstanceNorm2d(3, affine=True)), data(2, 3, 3, 4) * 2)


# ---- Dropout 与 Embedding ----

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


# ---- 循环网络 ----

def rnn_run(m, x, extra):
    x = x.clone().requires_grad_(True)
    y, state = m(x)
    grads = backward(y, x, m.weight_ih_l0, m.weight_hh_l0)
    out = {"y": flat(y), "dx": grads[0], "dw_ih": grads[1], "dw_hh": grads[2], "shape": list(y.shape)}
    out.update(extra(state))
    return out


@row
def rnn():
    return rnn_run(weights(nn.RNN(3, 4, batch_first=True)), data(2, 5, 3) * 2,
                   lambda h: {"h_n": flat(h)})


@row
def lstm():
    return rnn_run(weights(nn.LSTM(3, 4, batch_first=True)), data(2, 5, 3) * 2,
                   lambda s: {"h_n": flat(s[0]), "c_n": flat(s[1])})


@row
def gru():
    return rnn_run(weights(nn.GRU(3, 4, batch_first=True)), data(2, 5, 3) * 2,
                   lambda h: {"h_n": flat(h)})


@row
def lstm_seq_first():
    m = weights(nn.LSTM(3, 4))  # default batch_first=False: [seq, batch, feature]
    y, _ = m(data(5, 2, 3) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


def seq_first(m):
    # PyTorch's defaults: batch_first=False, x is [seq, batch, feature]; h_n is [1, batch, h].
    x = (data(5, 2, 3) * 2).requires_grad_(True)
    y, h = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "shape": list(y.shape), "h_n": flat(h), "dx": dx}


@row
def rnn_seq_first():
    return seq_first(weights(nn.RNN(3, 4)))


@row
def gru_seq_first():
    return seq_first(weights(nn.GRU(3, 4)))


def lstm_states(m, x):
    x = x.clone().requires_grad_(True)
    y, (h, c) = m(x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "shape": list(y.shape), "h_n": flat(h), "c_n": flat(c), "dx": dx}


@row
def lstm_num_layers():
    # Phases 10..80: l0's four tensors, then l1's.
    return lstm_states(weights(nn.LSTM(3, 4, num_layers=2, batch_first=True)), data(2, 5, 3) * 2)


@row
def lstm_bidirectional():
    # Phases 10..80: l0's four tensors, then l0_reverse's.
    return lstm_states(weights(nn.LSTM(3, 4, batch_first=True, bidirectional=True)), data(2, 5, 3) * 2)


@row
def lstm_proj_size():
    # Phases 10..50: weight_ih [16, 3], weight_hh [16, 2], bias_ih, bias_hh, weight_hr [2, 4].
    m = weights(nn.LSTM(3, 4, proj_size=2, batch_first=True))
    with torch.no_grad():
        y, (h, c) = m(data(2, 5, 3) * 2)
    return {"y": flat(y), "shape": list(y.shape), "h_n": flat(h), "c_n": flat(c)}


@row
def rnn_cell():
    m = weights(nn.RNNCell(3, 4))
    h = m(data(2, 3) * 2, data(2, 4, phase=80.0))
    return {"h": flat(h)}


@row
def lstm_cell():
    m = weights(nn.LSTMCell(3, 4))
    h, c = m(data(2, 3) * 2, (data(2, 4, phase=80.0), data(2, 4, phase=90.0)))
    return {"h": flat(h), "c": flat(c)}


@row
def gru_cell():
    m = weights(nn.GRUCell(3, 4))
    h = m(data(2, 3) * 2, data(2, 4, phase=80.0))
    return {"h": flat(h)}


# ---- 注意力 ----

def mha_module():
    m = nn.MultiheadAttention(4, 2, batch_first=True)
    setp(m.in_proj_weight, 10.0)  # [3E, E]: q, k, v stacked
    setp(m.in_proj_bias, 20.0)
    setp(m.out_proj.weight, 30.0)
    setp(m.out_proj.bias, 40.0)
    return m.eval()


@row
def mha():
    m = mha_module()
    x = data(2, 3, 4) * 2
    y, _ = m(x, x, x)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def mha_weights():
    m = mha_module()
    x = data(2, 3, 4) * 2
    _, w = m(x, x, x)  # average_attn_weights=True by default
    return {"weights_shape": list(w.shape)}


@row
def mha_weights_averaged():
    m = mha_module()
    x = data(2, 3, 4) * 2
    _, w = m(x, x, x)
    return {"y": flat(w), "shape": list(w.shape)}


@row
def mha_key_padding_mask():
    m = mha_module()
    x = data(2, 3, 4) * 2
    pad = torch.tensor([[False, False, True], [False, True, True]])
    y, _ = m(x, x, x, key_padding_mask=pad)
    return {"y": flat(y), "shape": list(y.shape)}


def causal():
    return torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)  # True = may not attend


@row
def mha_attn_mask():
    m = mha_module()
    x = data(2, 3, 4) * 2
    y, _ = m(x, x, x, attn_mask=causal())
    return {"y": flat(y), "shape": list(y.shape)}


@row
def mha_all_masked():
    m = mha_module()
    x = data(2, 3, 4) * 2
    pad = torch.tensor([[True, True, True], [False, True, True]])
    y, _ = m(x, x, x, key_padding_mask=pad)
    return {"nan": flat(y.isnan())}


@row
def mha_all_masked_nan():
    m = mha_module()
    x = data(2, 3, 4) * 2
    pad = torch.tensor([[True, True, True], [False, True, True]])
    y, _ = m(x, x, x, key_padding_mask=pad)
    # NaN cannot go into the burn side's JSON: the NaN flags, and y with NaN as 0 on both sides.
    return {"nan": flat(y.isnan()), "y": flat(torch.nan_to_num(y, nan=0.0))}


@row
def mha_seq_first():
    # Every default: dropout=0.0, batch_first=False ([seq, batch, d]); training mode, with backward.
    m = nn.MultiheadAttention(4, 2)
    setp(m.in_proj_weight, 10.0)
    setp(m.in_proj_bias, 20.0)
    setp(m.out_proj.weight, 30.0)
    setp(m.out_proj.bias, 40.0)
    x = (data(3, 2, 4) * 2).requires_grad_(True)
    y, _ = m(x, x, x)
    (dx,) = backward(y, x)
    return {"y": flat(y), "shape": list(y.shape), "dx": dx}


def encoder_layer(norm_first, mask=None):
    m = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, batch_first=True,
                                   norm_first=norm_first)
    return encoder_run(m, data(2, 3, 4) * 2, mask)


def encoder_run(m, x, mask=None):
    setp(m.self_attn.in_proj_weight, 10.0)
    setp(m.self_attn.in_proj_bias, 20.0)
    setp(m.self_attn.out_proj.weight, 30.0)
    setp(m.self_attn.out_proj.bias, 40.0)
    setp(m.linear1.weight, 50.0)
    setp(m.linear1.bias, 60.0)
    setp(m.linear2.weight, 70.0)
    setp(m.linear2.bias, 80.0)
    setp(m.norm1.weight, 90.0)
    setp(m.norm1.bias, 100.0)
    setp(m.norm2.weight, 110.0)
    setp(m.norm2.bias, 120.0)
    m.eval()
    with torch.no_grad():
        y = m(x, src_mask=mask)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def transformer_encoder_layer():
    return encoder_layer(False)


@row
def transformer_encoder_causal():
    return encoder_layer(False, causal())


@row
def transformer_encoder_layer_norm_first():
    return encoder_layer(True)


@row
def transformer_norm_first_by_name():
    return encoder_layer(True)


@row
def transformer_seq_first():
    # Every default: dim_feedforward=2048, relu, dropout 0.1 (off in eval), x is [seq, batch, d].
    return encoder_run(nn.TransformerEncoderLayer(4, 2), data(3, 2, 4) * 2)


# ---- 插值 ----

def interp(**kw):
    y = F.interpolate(data(1, 1, 3, 4), **kw)
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_up():
    return interp(size=(6, 8), mode="nearest")


@row
def interpolate_nearest_down():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest")
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_exact():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest-exact")
    return {"runs": True, "y": flat(y), "shape": list(y.shape)}


@row
def interpolate_nearest_exact_select():
    y = F.interpolate(data(1, 1, 5, 7), size=(3, 4), mode="nearest-exact")
    return {"y": flat(y), "shape": list(y.shape)}


@row
def interpolate_bilinear_align_false():
    return interp(size=(5, 7), mode="bilinear", align_corners=False)


@row
def interpolate_bilinear_align_true():
    return interp(size=(5, 7), mode="bilinear", align_corners=True)


@row
def interpolate_bilinear_default():
    return interp(size=(5, 7), mode="bilinear")


@row
def interpolate_bicubic():
    return interp(size=(5, 7), mode="bicubic", align_corners=False)


# ---- 模块的默认参数 ----
# Each value is read from a freshly built module at run time.

def padding_name(p):
    return "valid" if all(v == 0 for v in p) else str(p)


def default(fn):
    ROWS["default_" + fn.__name__] = fn
    return fn


@default
def linear_bias():
    return {"v": nn.Linear(4, 3).bias is not None}


@default
def conv2d_bias():
    return {"v": nn.Conv2d(2, 3, 3).bias is not None}


@default
def conv2d_stride():
    return {"v": list(nn.Conv2d(2, 3, 3).stride)}


@default
def conv2d_padding():
    return {"v": padding_name(nn.Conv2d(2, 3, 3).padding)}


@default
def conv2d_dilation():
    return {"v": list(nn.Conv2d(2, 3, 3).dilation)}


@default
def conv2d_groups():
    return {"v": nn.Conv2d(2, 3, 3).groups}


@default
def conv2d_padding_mode():
    return {"v": nn.Conv2d(2, 3, 3).padding_mode}


@default
def conv_transpose2d_output_padding():
    return {"v": list(nn.ConvTranspose2d(2, 3, 3).output_padding)}


@default
def maxpool2d_stride():
    m = nn.MaxPool2d(3)
    return {"v": [m.stride, m.stride]}


@default
def maxpool2d_padding():
    return {"v": padding_name([nn.MaxPool2d(3).padding])}


@default
def maxpool2d_ceil_mode():
    return {"v": nn.MaxPool2d(3).ceil_mode}


@default
def avgpool2d_count_include_pad():
    return {"v": nn.AvgPool2d(3).count_include_pad}


@default
def avgpool2d_ceil_mode():
    return {"v": nn.AvgPool2d(3).ceil_mode}


@default
def batchnorm_eps():
    return {"v": nn.BatchNorm2d(3).eps}


@default
def batchnorm_momentum():
    return {"v": nn.BatchNorm2d(3).momentum}


@default
def batchnorm_affine():
    return {"v": nn.BatchNorm2d(3).affine}


@default
def batchnorm_track_running_stats():
    return {"v": nn.BatchNorm2d(3).track_running_stats}


@default
def layernorm_eps():
    return {"v": nn.LayerNorm(4).eps}


@default
def layernorm_elementwise_affine():
    return {"v": nn.LayerNorm(4).elementwise_affine}


@default
def layernorm_bias():
    return {"v": nn.LayerNorm(4).bias is not None}


@default
def groupnorm_eps():
    return {"v": nn.GroupNorm(2, 4).eps}


@default
def groupnorm_affine():
    return {"v": nn.GroupNorm(2, 4).affine}


@default
def instancenorm_affine():
    return {"v": nn.InstanceNorm2d(3).affine}


@default
def dropout_p():
    return {"v": nn.Dropout().p}


@default
def embedding_padding_idx():
    return {"v": nn.Embedding(5, 3).padding_idx}


@default
def rnn_nonlinearity():
    return {"v": nn.RNN(3, 4).nonlinearity}


@default
def rnn_bias():
    return {"v": nn.RNN(3, 4).bias}


@default
def rnn_batch_first():
    return {"v": nn.RNN(3, 4).batch_first}


@default
def lstm_bias():
    return {"v": nn.LSTM(3, 4).bias}


@default
def lstm_batch_first():
    return {"v": nn.LSTM(3, 4).batch_first}


@default
def gru_batch_first():
    return {"v": nn.GRU(3, 4).batch_first}


@default
def mha_dropout():
    return {"v": nn.MultiheadAttention(4, 2).dropout}


@default
def mha_batch_first():
    return {"v": nn.MultiheadAttention(4, 2).batch_first}


@default
def mha_bias():
    return {"v": nn.MultiheadAttention(4, 2).in_proj_bias is not None}


@default
def transformer_dropout():
    return {"v": nn.TransformerEncoderLayer(4, 2).dropout.p}


@default
def transformer_activation():
    return {"v": nn.TransformerEncoderLayer(4, 2).activation.__name__}


@default
def transformer_norm_first():
    return {"v": nn.TransformerEncoderLayer(4, 2).norm_first}


@default
def transformer_layer_norm_eps():
    return {"v": nn.TransformerEncoderLayer(4, 2).norm1.eps}


@default
def transformer_dim_feedforward():
    return {"v": nn.TransformerEncoderLayer(4, 2).linear1.out_features}


@default
def transformer_batch_first():
    return {"v": nn.TransformerEncoderLayer(4, 2).self_attn.batch_first}


@default
def leaky_relu_negative_slope():
    return {"v": nn.LeakyReLU().negative_slope}


@default
def elu_alpha():
    return {"v": nn.ELU().alpha}


@default
def gelu_approximate():
    return {"v": nn.GELU().approximate}


@default
def prelu_init():
    m = nn.PReLU()
    return {"v": [m.num_parameters, float(m.weight.detach()[0])]}


@default
def softplus_beta_threshold():
    m = nn.Softplus()
    return {"v": [float(m.beta), float(m.threshold)]}


@default
def hardtanh_range():
    m = nn.Hardtanh()
    return {"v": [m.min_val, m.max_val]}


@default
def interpolate_mode():
    # F.interpolate's signature: mode='nearest', align_corners=None (False for bilinear).
    import inspect
    return {"v": inspect.signature(F.interpolate).parameters["mode"].default}


@default
def interpolate_align_corners():
    import inspect
    d = inspect.signature(F.interpolate).parameters["align_corners"].default
    return {"v": bool(d)}  # None behaves as False


print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
