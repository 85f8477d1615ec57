"""线性与卷积：ref-3-nn/linear_conv.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
