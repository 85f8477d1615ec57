"""载入 PyTorch 的权重：ref-5-store/load_pytorch.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def run(m, x, *params):
    """Forward, then L = sum(y · G) (G of phase 50) backward: y, dx and each parameter's grad."""
    x = x.clone().requires_grad_(True)
    y = m(x)
    (y * data(*y.shape, phase=50.0)).sum().backward()
    out = {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}
    for name in params:
        out["d_" + name] = flat(getattr(m, name).grad)
    return out

@row
def load_linear():
    return run(loaded_zoo().lin, data(2, 4), "weight", "bias")


@row
def load_conv2d():
    return run(loaded_zoo().conv, data(2, 2, 4, 4), "weight", "bias")


@row
def load_conv_transpose2d():
    return run(loaded_zoo().convt, data(1, 3, 3, 3), "weight", "bias")


@row
def load_batchnorm_eval():
    bn = loaded_zoo().bn.eval()
    with torch.no_grad():
        y = bn(data(2, 3, 4, 4) * 2)
    return {"y": flat(y), "running_mean": flat(bn.running_mean), "running_var": flat(bn.running_var)}


@row
def load_layernorm():
    return run(loaded_zoo().ln, data(2, 3, 4), "weight", "bias")


@row
def load_groupnorm():
    return run(loaded_zoo().gn, data(2, 4, 3), "weight", "bias")


@row
def load_embedding():
    emb = loaded_zoo().emb
    y = emb(torch.tensor([[0, 4, 2], [1, 1, 3]]))
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return {"y": flat(y), "d_weight": flat(emb.weight.grad)}


@row
def load_lstm():
    # Every parameter of the LSTM gets its value from the file; nothing is left over.
    zoo = Zoo()
    sd = torch.load(DATA / "zoo.pt")
    result = zoo.load_state_dict(sd, strict=False)
    filled = [k for k, v in zoo.lstm.state_dict().items() if torch.equal(v, sd["lstm." + k])]
    return {"filled": len(filled), "missing": len(result.missing_keys),
            "unused": sorted(result.unexpected_keys)}


@row
def load_lstm_split():
    lstm = loaded_zoo().lstm
    x = data(2, 3, 3).requires_grad_(True)
    y, _ = lstm(x)
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}


@row
def load_gru_split():
    m = GruZoo()
    m.load_state_dict(torch.load(DATA / "gru.pt"))
    x = data(2, 3, 3).requires_grad_(True)
    y, _ = m.gru(x)
    (y * data(*y.shape, phase=50.0)).sum().backward()
    return {"y": flat(y), "shape": list(y.shape), "dx": flat(x.grad)}
