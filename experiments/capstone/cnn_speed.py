"""The wall time of one training epoch of cnn_train.py's classifier (20 steps of batch 50,
dropout 0) on this machine's CPU: PyTorch here, then the two burn release binaries,
target/release/cap-cnn-speed (burn's default features: Flex with simd and rayon) and
target/release/cap-cnn-speed-lean (default features off). The manifest lists them under
`needs`: the runner builds them before this script runs.

Each side runs WARMUP untimed epochs, then K timed ones, and reports the median. PyTorch's
weights are its own default initialisation (torch.manual_seed(0)), burn's are burn's: the time
of an epoch does not depend on the values.
"""
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cnn_train import BATCH, Net, loaders  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LR = 3e-3
WARMUP, K = 1, 5
BINARIES = {
    "burn_default": ROOT / "target" / "release" / "cap-cnn-speed",
    "burn_lean": ROOT / "target" / "release" / "cap-cnn-speed-lean",
}


def os_threads():
    return len(os.listdir("/proc/self/task"))


def pytorch():
    torch.manual_seed(0)
    train_loader, _ = loaders()
    model = Net(dropout=0.0)
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    model.train()
    seconds, losses, cpu, wall = [], [], 0.0, 0.0
    for epoch in range(WARMUP + K):
        cpu0, t0 = time.process_time(), time.perf_counter()
        # region: epoch
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = F.nll_loss(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())  # reads back, as cnn_train.py does
        # endregion: epoch
        if epoch >= WARMUP:
            seconds.append(time.perf_counter() - t0)
            cpu += time.process_time() - cpu0
            wall += time.perf_counter() - t0
    return {
        "steps_per_epoch": len(train_loader),
        "epoch_seconds": seconds,
        "median_seconds": statistics.median(seconds),
        "loss": {"first": losses[0], "last": losses[-1]},
        "learned": losses[-1] < losses[0],
        "threads": {"torch_num_threads": torch.get_num_threads(), "os_threads": os_threads(),
                    "cpu_over_wall": cpu / wall},
    }


def burn(exe):
    out = subprocess.run([str(exe)], check=True, capture_output=True, stdin=subprocess.DEVNULL)
    return json.loads(out.stdout)


sides = {"pytorch": pytorch()}
sides.update((name, burn(exe)) for name, exe in BINARIES.items())
for name in BINARIES:
    got = sides[name]
    assert (got["k"], got["warmup_epochs"], got["batch"]) == (K, WARMUP, BATCH), (name, got)
assert len({s["steps_per_epoch"] for s in sides.values()}) == 1, sides

print(json.dumps({
    "k": K,
    "warmup_epochs": WARMUP,
    "batch": BATCH,
    "steps_per_epoch": sides["pytorch"]["steps_per_epoch"],
    "init": {"pytorch": "torch (manual_seed 0)", "burn_default": sides["burn_default"]["init"],
             "burn_lean": sides["burn_lean"]["init"]},
    "learned": {name: s["learned"] for name, s in sides.items()},
    # What the kernels dispatch on (the page is about this CPU: PyTorch runs unpinned).
    "cpu": {"torch_capability": torch.backends.cpu.get_cpu_capability(),
            "burn": sides["burn_default"]["cpu"]},
    "median_seconds": {name: s["median_seconds"] for name, s in sides.items()},
    "epoch_seconds": {name: s["epoch_seconds"] for name, s in sides.items()},
    "loss": {name: s["loss"] for name, s in sides.items()},
    "threads": {**{name: s["threads"] for name, s in sides.items()},
                "cpu_count": os.cpu_count(), "affinity": len(os.sched_getaffinity(0))},
}, indent=1))
