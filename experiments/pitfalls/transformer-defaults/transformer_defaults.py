"""A one-layer Transformer encoder written the PyTorch way: nn.TransformerEncoderLayer with its
defaults (activation, dropout, norm_first) and only d_model, nhead, dim_feedforward and
batch_first given, run in eval() mode on a [2, 3, 4] batch.

Weights are set by hand: element k of a tensor with phase p is 0.5·sin(k + 1 + p), in f64,
rounded to f32 once; the input is twice phase 0. The burn crates build the same numbers.
"""
import json
import math
import warnings

import torch
from torch import nn


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def set_weights(layer):
    # PyTorch's own layout: in_proj stacks q, k, v; Linear weights are [out, in].
    named = [
        (layer.self_attn.in_proj_weight, 10), (layer.self_attn.in_proj_bias, 20),
        (layer.self_attn.out_proj.weight, 30), (layer.self_attn.out_proj.bias, 40),
        (layer.linear1.weight, 50), (layer.linear1.bias, 60),
        (layer.linear2.weight, 70), (layer.linear2.bias, 80),
        (layer.norm1.weight, 90), (layer.norm1.bias, 100),
        (layer.norm2.weight, 110), (layer.norm2.bias, 120),
    ]
    with torch.no_grad():
        for p, phase in named:
            p.copy_(data(*p.shape, phase=phase))


def flat(t):
    return [float(v) for v in t.detach().flatten().tolist()]


x = data(2, 3, 4) * 2  # [batch, seq, d_model]

# region: model
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=6, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=1)
set_weights(encoder.layers[0])
encoder.eval()
with torch.no_grad():
    y = encoder(x)
# endregion: model


def variant(**kw):
    # The same weights in a layer built with other arguments.
    with warnings.catch_warnings():
        # "enable_nested_tensor is True, but ... norm_first was True": a speed note, not a result.
        warnings.simplefilter("ignore", UserWarning)
        layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, batch_first=True, **kw)
        enc = nn.TransformerEncoder(layer, num_layers=1)
    set_weights(enc.layers[0])
    enc.eval()
    with torch.no_grad():
        return enc(x)


l0 = encoder.layers[0]
print(json.dumps({
    "activation": l0.activation.__name__,
    "dropout": l0.dropout.p,
    "norm_first": l0.norm_first,
    "d_ff": l0.linear1.out_features,
    "y": flat(y),
    "shape": list(y.shape),
    "y_norm_first": flat(variant(norm_first=True)),  # checked by the fix's norm mapping
    "y_gelu": flat(variant(activation="gelu")),  # what burn's default activation computes
}, indent=1))
