"""Transformer 解码器：ref-8-modules/transformer_decoder.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def causal(n):
    return torch.triu(torch.ones(n, n, dtype=torch.bool), 1)  # True = may not attend

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


def set_encoder_layer(l, b):
    set_mha(l.self_attn, b)
    setp(l.linear1.weight, b + 50.0)
    setp(l.linear1.bias, b + 60.0)
    setp(l.linear2.weight, b + 70.0)
    setp(l.linear2.bias, b + 80.0)
    setp(l.norm1.weight, b + 90.0)
    setp(l.norm1.bias, b + 100.0)
    setp(l.norm2.weight, b + 110.0)
    setp(l.norm2.bias, b + 120.0)


@row
def transformer_encoder_stack():
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, batch_first=True)
    m = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    for i, l in enumerate(m.layers):
        set_encoder_layer(l, 200.0 * i)
    m.eval()
    x = leaf(data(2, 3, 4) * 2)
    y = m(x, mask=causal(3), is_causal=True)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad),
            "dw": flat(m.layers[0].linear1.weight.grad)}


@row
def transformer():
    m = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=6, dropout=0.0, batch_first=True)
    set_encoder_layer(m.encoder.layers[0], 0.0)
    set_decoder_layer(m.decoder.layers[0], 400.0)
    m.eval()
    src, tgt = leaf(data(2, 5, 4, phase=5.0) * 2), leaf(data(2, 3, 4) * 2)
    y = m(src, tgt, tgt_mask=causal(3))
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(tgt.grad), "grad_src": flat(src.grad),
            "dw": flat(m.encoder.layers[0].linear1.weight.grad)}
