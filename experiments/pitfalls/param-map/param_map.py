"""Editing a parameter's value before training, the PyTorch way: in place, under no_grad.
Two habits: scale the initial weight (mul_), and copy other values into it (copy_).
Then a few SGD steps; the edited weight keeps training."""
import json
import math

import torch

IN, OUT, B, STEPS, LR = 3, 2, 4, 5, 0.1


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]  # f64, rounded to f32 once below


x = torch.tensor(seq(B * IN, math.cos, 0.5)).reshape(B, IN)
y = torch.tensor(seq(B * OUT, math.sin, 0.3)).reshape(B, OUT)


def make_linear():
    fc = torch.nn.Linear(IN, OUT)
    with torch.no_grad():
        fc.weight.copy_(torch.tensor(seq(OUT * IN, math.sin, 0.5)).reshape(OUT, IN))
        fc.bias.copy_(torch.tensor([0.01 * o for o in range(OUT)]))
    return fc


def train(fc):
    # region: train
    opt = torch.optim.SGD(fc.parameters(), lr=LR)
    losses, with_grad = [], []
    for _ in range(STEPS):
        loss = ((fc(x) - y) ** 2).mean()
        losses.append(loss.item())
        opt.zero_grad()
        loss.backward()
        with_grad.append(sum(p.grad is not None for p in fc.parameters()))
        opt.step()
    # endregion: train
    losses.append(((fc(x) - y) ** 2).mean().item())
    return losses, with_grad


def run(edit):
    fc = make_linear()
    before = fc.weight
    edit(fc)
    edited = fc.weight.detach().clone()
    report = {
        "same_parameter_object": fc.weight is before,
        "requires_grad_after_edit": fc.weight.requires_grad,
        "weight_after_edit": edited.flatten().tolist(),
    }
    losses, with_grad = train(fc)
    report.update({
        "losses": losses,
        "params_with_grad": with_grad,
        "weight": fc.weight.detach().flatten().tolist(),
        "bias": fc.bias.detach().flatten().tolist(),
        "weight_trained": not torch.equal(fc.weight.detach(), edited),
    })
    return report


# region: scale
def scale(fc):
    with torch.no_grad():
        fc.weight.mul_(0.5)  # e.g. a scaled init
# endregion: scale


# region: copy
w_new = torch.tensor(seq(OUT * IN, math.cos, 0.2)).reshape(OUT, IN)


def copy(fc):
    with torch.no_grad():
        fc.weight.copy_(w_new)  # e.g. values from elsewhere
# endregion: copy


print(json.dumps({
    "config": {"in": IN, "out": OUT, "batch": B, "steps": STEPS, "lr": LR, "optimizer": "SGD"},
    "scale": run(scale),
    "copy": run(copy),
}, indent=1))
