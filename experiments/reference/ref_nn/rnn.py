"""循环网络：ref-3-nn/rnn.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
