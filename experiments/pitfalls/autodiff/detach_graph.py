"""An online weight trained by SGD and a target weight kept as its EMA (mean-teacher style),
the PyTorch way: the target is a detached copy, updated under no_grad. Each step is timed."""
import json
import statistics
import time

import torch

STEPS, B, IN, OUT = 1000, 16, 32, 32
SLOWER = 3.0  # how much slower the last 10 steps must be for last10_slower_than_first10
LR, DECAY = 0.05, 0.99
torch.set_num_threads(1)


def seq(n, f, scale):
    k = torch.arange(1, n + 1, dtype=torch.float64)
    return (scale * f(k)).float()


x = seq(B * IN, torch.sin, 1.0).reshape(B, IN)
y = seq(B * OUT, torch.cos, 0.5).reshape(B, OUT)
w = seq(IN * OUT, torch.cos, 0.1).reshape(IN, OUT).requires_grad_()
# region: ema
target = w.detach().clone()  # the target network starts as a copy of the online one
# endregion: ema
# region: loop
step_ms, losses = [], []
for _ in range(STEPS):
    t0 = time.perf_counter()
    pred = x @ w
    teacher = x @ target  # target has no grad: a constant
    loss = ((pred - y) ** 2).mean() + ((pred - teacher) ** 2).mean()
    losses.append(loss.item())
    loss.backward()
    with torch.no_grad():
        w -= LR * w.grad
        w.grad = None
        target.mul_(DECAY).add_(w, alpha=1 - DECAY)  # EMA, recorded nowhere
    step_ms.append((time.perf_counter() - t0) * 1e3)
# endregion: loop
first = statistics.median(step_ms[:10])
last = statistics.median(step_ms[-10:])
print(json.dumps({
    "config": {"steps": STEPS, "batch": B, "in": IN, "out": OUT, "lr": LR, "decay": DECAY},
    "target_requires_grad": target.requires_grad,
    "final_loss": losses[-1],
    "w_head": w.detach().flatten()[:4].tolist(),
    "target_head": target.flatten()[:4].tolist(),
    "slower_factor": SLOWER,
    "last10_slower_than_first10": last > SLOWER * first,
    "step_ms": step_ms,
    "first10_median_ms": first,
    "last10_median_ms": last,
}, indent=2))
