"""RSS over N inference passes of an 8-layer 256→256 Linear/ReLU stack on a batch of 512,
in four modes; each mode runs in its own child process, so they do not share an allocator."""
import json
import os
import subprocess
import sys

import torch
from torch import nn

N, LAYERS, WIDTH, BATCH = 50, 8, 256, 512
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
runs = {m: json.loads(subprocess.run([sys.executable, "-I", os.path.abspath(__file__), m],
                                     check=True, capture_output=True, text=True).stdout)
        for m in modes}
print(json.dumps({
    "config": {"passes": N, "layers": LAYERS, "width": WIDTH, "batch": BATCH},
    "rss_mb": {m: r["rss_mb"] for m, r in runs.items()},
    "growth_mb": {m: r["rss_mb"][-1] - r["rss_mb"][0] for m, r in runs.items()},
    # a coarse, stable fact drawn from the volatile numbers: did RSS grow by over 100 MB?
    "grows_over_100mb": {m: r["rss_mb"][-1] - r["rss_mb"][0] > 100 for m, r in runs.items()},
}))
