"""A validation loop over N batches on a 4-layer 256→256 Linear/ReLU stack, under torch.no_grad(),
with VmRSS read after every batch. REPEATS runs, each in its own fresh child process: per run
the growth, then median and range."""
import json
import subprocess
import sys

import torch
from torch import nn

N, LAYERS, WIDTH, BATCH, REPEATS = 60, 4, 256, 256, 3
THRESHOLD_MB = 100.0  # growth of the median run above which grows_over_100mb (the page reads it)
torch.set_num_threads(1)


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def build():
    layers = []
    for l in range(LAYERS):
        lin = nn.Linear(WIDTH, WIDTH)
        k = torch.arange(1, WIDTH * WIDTH + 1, dtype=torch.float64)
        with torch.no_grad():
            lin.weight.copy_((0.09 * torch.sin(k + l)).reshape(WIDTH, WIDTH).float())
            lin.bias.zero_()
        layers += [lin, nn.ReLU()]
    return nn.Sequential(*layers)


def batch(i):
    """Validation batch i: inputs cos(k + i), targets 0.5·sin(k + i)."""
    k = torch.arange(1, BATCH * WIDTH + 1, dtype=torch.float64) + i
    return torch.cos(k).reshape(BATCH, WIDTH).float(), (0.5 * torch.sin(k)).reshape(BATCH, WIDTH).float()


def child():
    model = build()
    rss = [rss_mb()]
    # region: validate
    model.eval()
    total = 0.0
    with torch.no_grad():  # nothing is recorded for backward
        for i in range(N):
            x, y = batch(i)
            out = model(x)
            loss = ((out - y) ** 2).mean()
            total += loss.item()
            rss.append(rss_mb())
    val_loss = total / N
    # endregion: validate
    print(json.dumps({"rss_mb": rss, "val_loss": val_loss}))


if len(sys.argv) > 1:
    child()
    sys.exit(0)

runs = []
for _ in range(REPEATS):
    out = subprocess.run([sys.executable, __file__, "child"], capture_output=True, text=True, check=True)
    runs.append(json.loads(out.stdout))
g = [r["rss_mb"][N] - r["rss_mb"][0] for r in runs]
order = sorted(range(REPEATS), key=lambda i: g[i])
med = order[REPEATS // 2]
print(json.dumps({
    "config": {"batches": N, "layers": LAYERS, "width": WIDTH, "batch": BATCH, "repeats": REPEATS, "no_grad": True},
    "val_loss": runs[0]["val_loss"],
    "threshold_mb": THRESHOLD_MB,
    "grows_over_100mb": g[med] > THRESHOLD_MB,
    "rss_mb": runs[med]["rss_mb"],
    "growth_mb": {"runs": g, "median": g[med], "min": g[order[0]], "max": g[order[-1]]},
}, indent=2))
