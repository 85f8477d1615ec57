"""注意力：ref-3-nn/attention.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
