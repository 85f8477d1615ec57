"""模块的默认参数：ref-3-nn/defaults.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
