"""训练与推理模式：ref-8-modules/train_eval.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


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
