"""A distillation-style KL loss written the PyTorch way: nn.KLDivLoss() with its default
reduction, on log-probabilities of a [4, 5] batch against a target distribution."""
import json
import math
import warnings

import torch
import torch.nn.functional as F

B, C = 4, 5  # batch, classes


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]


logits = torch.tensor(seq(B * C, math.sin, 2.0)).reshape(B, C).requires_grad_()
target = F.softmax(torch.tensor(seq(B * C, math.cos, 1.5)).reshape(B, C), dim=1)

# region: loss
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss = torch.nn.KLDivLoss()(F.log_softmax(logits, dim=1), target)  # reduction="mean"
loss.backward()
# endregion: loss

log_p = F.log_softmax(logits.detach(), dim=1)
other = {r: torch.nn.KLDivLoss(reduction=r)(log_p, target).item() for r in ("batchmean", "sum")}
flat = lambda t: [float(v) for v in t.detach().flatten().tolist()]
print(json.dumps({
    "batch": B,
    "classes": C,
    "reduction": torch.nn.KLDivLoss().reduction,
    "loss": loss.item(),
    "grad": flat(logits.grad),
    "loss_batchmean": other["batchmean"],
    "loss_sum": other["sum"],
    "warning": [f"{w.category.__name__}: {w.message}" for w in caught],
}, indent=1))
