"""A1's forward pass only (4→8→3 MLP, ReLU) on fixed weights, on the CPU: no training.

Prints the logits as JSON, like crates/why-infer. experiments/why/measure.py runs this
script in a fresh Python process to time it.
"""
import json
import math

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


def linear(out, inp, f):
    # A1's weights: element k (1-based, [out, in]) is 0.5·f(k), f64 rounded to f32 once.
    layer = nn.Linear(inp, out)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([[0.5 * f(r * inp + c + 1) for c in range(inp)]
                                         for r in range(out)]))
        layer.bias.copy_(torch.tensor([0.01 * o for o in range(out)]))
    return layer


# region: infer
model = nn.Sequential(linear(HID, IN, math.sin), nn.ReLU(), linear(OUT, HID, math.cos))
model.eval()
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

with torch.no_grad():  # inference: no autograd graph
    logits = model(x)
logits = [float(v) for v in logits.flatten().tolist()]
# endregion: infer


# region: rss
def vm_hwm_kb():
    """This process's peak resident set size so far (VmHWM in /proc/self/status), in KiB."""
    with open("/proc/self/status") as f:
        line = next(ln for ln in f if ln.startswith("VmHWM:"))
    return int(line.split()[1])
# endregion: rss


print(json.dumps({"logits": logits, "shape": [BATCH, OUT], "vm_hwm_kb": vm_hwm_kb()}))
