"""One SGD step of a Linear(3, 2) with clip_grad_norm_ before step(): PyTorch scales all
gradients by one factor computed from their global norm."""
import json
import math

import torch

IN, OUT, B = 3, 2, 4
MAX_NORM, LR = 1.0, 0.1


def seq(n, f, scale):
    return [scale * f(k + 1) for k in range(n)]


lin = torch.nn.Linear(IN, OUT)
with torch.no_grad():
    lin.weight.copy_(torch.tensor(seq(OUT * IN, math.sin, 0.5)).reshape(OUT, IN))
    lin.bias.copy_(torch.tensor(seq(OUT, math.cos, 0.5)))
x = torch.tensor(seq(B * IN, math.sin, 1.0)).reshape(B, IN)
y = torch.tensor(seq(B * OUT, math.cos, 1.5)).reshape(B, OUT) + 0.5
opt = torch.optim.SGD(lin.parameters(), lr=LR)

norm = lambda g: float(g.norm())
# region: step
loss = ((lin(x) - y) ** 2).mean()
loss.backward()
raw = {"weight": norm(lin.weight.grad), "bias": norm(lin.bias.grad)}
total = torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=MAX_NORM)
opt.step()
# endregion: step

# The gradients step() used, after clipping: one factor for both.
used = {"weight": norm(lin.weight.grad), "bias": norm(lin.bias.grad)}
used["total"] = math.hypot(used["weight"], used["bias"])
flat = lambda t: [float(v) for v in t.detach().flatten().tolist()]
print(json.dumps({
    "max_norm": MAX_NORM,
    "loss": loss.item(),
    "raw_norms": dict(raw, total=float(total)),
    "used_norms": used,
    "scale": {k: used[k] / raw[k] for k in ("weight", "bias")},
    "weight": flat(lin.weight),  # [out, in]
    "bias": flat(lin.bias),
}, indent=1))
