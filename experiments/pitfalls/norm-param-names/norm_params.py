"""Pitfall norm-param-names, PyTorch side: a small Conv1d -> BatchNorm1d -> LayerNorm
model with non-default norm parameters, saved with torch.save(state_dict) and as
safetensors, loaded back and run in eval mode. Prints the same JSON structure as
crates/p-norm-param-names-fix.

The burn programs read copies of these files committed in their crates (written by
make_weights.py, which calls save_checkpoints below).
"""
import json
import math
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn

C_IN, C, K, L, BATCH = 2, 4, 3, 8, 2  # input [BATCH, C_IN, L]; output [BATCH, C, L - K + 1]


# region: model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(C_IN, C, K)
        self.bn = nn.BatchNorm1d(C)
        self.ln = nn.LayerNorm(L - K + 1)

    def forward(self, x):
        return self.ln(self.bn(self.conv(x)))
# endregion: model


def filled():
    """A Net whose every parameter and buffer holds a known value, none of them the default
    (ones / zeros), so that a norm layer left at its initial values shows in the output."""
    model = Net()
    with torch.no_grad():
        for name, t in list(model.named_parameters()) + list(model.named_buffers()):
            if t.dtype != torch.float32:
                continue  # bn.num_batches_tracked
            n = t.numel()
            f = math.sin if "weight" in name else math.cos
            vals = [0.5 * f(k + 1) for k in range(n)]
            if name.startswith(("bn.weight", "ln.weight")):
                vals = [1.0 + v for v in vals]
            if name == "bn.running_var":
                vals = [1.5 + v for v in vals]
            t.copy_(torch.tensor(vals).reshape(t.shape))
        model.bn.num_batches_tracked.fill_(100)
    return model.eval()


def save_checkpoints(folder: Path):
    # region: save
    model = filled()
    torch.save(model.state_dict(), folder / "net.pt")
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, folder / "net.safetensors")
    # endregion: save


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


if __name__ == "__main__":
    save_checkpoints(Path("."))
    x = torch.tensor([math.sin(k + 1) for k in range(BATCH * C_IN * L)]).reshape(BATCH, C_IN, L)
    # region: load
    sd = torch.load("net.pt")
    model = Net()
    model.load_state_dict(sd)
    model.eval()
    with torch.no_grad():
        out = model(x)
    # endregion: load
    norm = [v for name in ("bn.weight", "bn.bias", "bn.running_mean", "bn.running_var",
                           "ln.weight", "ln.bias") for v in nums(model.state_dict()[name])]
    model_st = Net()
    model_st.load_state_dict(load_file("net.safetensors"))
    model_st.eval()
    with torch.no_grad():
        out_st = model_st(x)
    print(json.dumps({
        "keys": sorted(sd.keys()),
        "norm": norm,
        "out_pt": nums(out),
        "out_st": nums(out_st),
        "out_remap": nums(out_st),
    }, indent=1))
