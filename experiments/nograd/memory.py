"""RSS over N inference passes of an 8-layer 256→256 Linear/ReLU stack on a batch of 512,
in four modes; each mode runs REPEATS times, each run in its own fresh child process, so no two
runs share an allocator. Per mode: the growth of each run, its median, min and max."""
import json
import os
import subprocess
import sys

import torch
from torch import nn

N, LAYERS, WIDTH, BATCH = 50, 8, 256, 512
REPEATS = 3
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
    model = nn.Sequential(*layers)
    k = torch.arange(1, BATCH * WIDTH + 1, dtype=torch.float64)
    x = torch.cos(k).reshape(BATCH, WIDTH).float()
    return model, x


def child(mode):
    model, x = build()
    rss, kept = [], []
    # region: passes
    for _ in range(N):
        if mode.startswith("nograd"):
            with torch.no_grad():
                out = model(x)
        else:
            out = model(x)                  # autograd on: out carries its graph
        m = out.mean().item()
        if mode.endswith("keep"):
            kept.append(out)                # keeps out alive, and with it its graph
        del out                             # "drop": nothing of this pass survives
        rss.append(rss_mb())
    # endregion: passes
    print(json.dumps({"rss_mb": rss}))


if len(sys.argv) > 1:
    child(sys.argv[1])
    sys.exit(0)

modes = ["grad_drop", "grad_keep", "nograd_drop", "nograd_keep"]


def run(mode):
    return json.loads(subprocess.run([sys.executable, "-I", os.path.abspath(__file__), mode],
                                     check=True, capture_output=True, text=True).stdout)["rss_mb"]


# runs interleaved (mode after mode, then again), so a slow patch of the machine hits every mode
runs = {m: [] for m in modes}
for _ in range(REPEATS):
    for m in modes:
        runs[m].append(run(m))

growth, rss = {}, {}
for m in modes:
    g = [r[-1] - r[0] for r in runs[m]]
    order = sorted(range(REPEATS), key=lambda i: g[i])
    med = order[REPEATS // 2]                     # REPEATS is odd: the median is one of the runs
    growth[m] = {"runs": g, "median": g[med], "min": min(g), "max": max(g)}
    rss[m] = runs[m][med]                         # the RSS series of the median run, for the plots
print(json.dumps({
    "config": {"passes": N, "layers": LAYERS, "width": WIDTH, "batch": BATCH, "repeats": REPEATS},
    "rss_mb": rss,
    "growth_mb": growth,
    # a coarse, stable fact drawn from the volatile numbers: did the median run grow by over 100 MB?
    "threshold_mb": THRESHOLD_MB,
    "grows_over_100mb": {m: growth[m]["median"] > THRESHOLD_MB for m in modes},
}))
