"""Named heads kept in a dict, the PyTorch way: nn.ModuleDict registers every Linear in it,
so the optimizer sees their parameters. A plain dict is counted too, for comparison."""
import json
import math

import torch
from torch import nn

IN, B, STEPS, LR = 4, 4, 3, 0.1
HEADS = [("cls", 3), ("reg", 1)]  # name, output size


def seq(n, f, scale, start=0):
    return [scale * f(start + k + 1) for k in range(n)]  # f64, rounded to f32 once below


def linear(out, start):
    """Weight element k of [out, in] is 0.5·sin(start + k), bias element o is 0.01·o."""
    fc = nn.Linear(IN, out)
    with torch.no_grad():
        fc.weight.copy_(torch.tensor(seq(out * IN, math.sin, 0.5, start)).reshape(out, IN))
        fc.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))
    return fc


# region: model
class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({name: linear(out, 10 * i) for i, (name, out) in enumerate(HEADS)})

    def forward(self, x):
        return {name: head(x) for name, head in self.heads.items()}
# endregion: model


# region: plain
class PlainDictHeads(nn.Module):  # a plain dict: nn.Module does not look inside it
    def __init__(self):
        super().__init__()
        self.heads = {name: linear(out, 10 * i) for i, (name, out) in enumerate(HEADS)}
# endregion: plain


x = torch.tensor(seq(B * IN, math.cos, 0.5)).reshape(B, IN)
targets = {name: torch.tensor(seq(B * out, math.sin, 0.3, 100 * (i + 1))).reshape(B, out)
           for i, (name, out) in enumerate(HEADS)}

# region: train
model = Heads()
opt = torch.optim.SGD(model.parameters(), lr=LR)
losses, with_grad = [], []
for _ in range(STEPS):
    out = model(x)
    loss = sum(((out[n] - targets[n]) ** 2).mean() for n, _ in HEADS)
    losses.append(loss.item())
    opt.zero_grad()
    loss.backward()
    with_grad.append(sum(p.grad is not None for p in model.parameters()))
    opt.step()
# endregion: train
out = model(x)
losses.append(sum(((out[n] - targets[n]) ** 2).mean() for n, _ in HEADS).item())

# region: plain
plain = PlainDictHeads()
try:
    torch.optim.SGD(plain.parameters(), lr=LR)
    plain_optimizer = "no error"
except ValueError as e:
    plain_optimizer = f"ValueError: {e}"
# endregion: plain

flat = lambda t: [float(v) for v in t.detach().flatten().tolist()]
print(json.dumps({
    "config": {"in": IN, "batch": B, "steps": STEPS, "lr": LR, "optimizer": "SGD",
               "heads": {n: o for n, o in HEADS}},
    "num_params": sum(p.numel() for p in model.parameters()),
    "num_param_tensors": len(list(model.parameters())),
    "param_names": [n for n, _ in model.named_parameters()],
    "plain_dict_num_params": sum(p.numel() for p in plain.parameters()),
    "plain_dict_optimizer": plain_optimizer,
    "params_with_grad": with_grad,
    "losses": losses,
    "heads": {n: {"weight": flat(model.heads[n].weight), "bias": flat(model.heads[n].bias)}
              for n, _ in HEADS},
}, indent=1))
