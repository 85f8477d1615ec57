"""Pitfall file-exists, PyTorch side.

1. A training loop that saves a checkpoint to the same path after every step: torch.save
   (and safetensors' save_file) replace the file; the last save is what loads back.
2. A model whose layers sit in an nn.Sequential: the state_dict keys are indices
   (`layers.0.weight`, `layers.2.weight`; a bare Sequential gives `0.weight`, `2.weight`).
   Saved and loaded back into PyTorch, then run on A1's inputs.

Prints the same JSON structure as crates/p-file-exists-fix. The burn programs read copies of
the two weight files committed in their crates (written by make_weights.py, which calls
save_sequential below); the `weights_fnv` field (a hash of the f32 bits of every weight)
lets the fix experiment check that both sides read the same numbers.
"""
import json
import math
import os
import struct
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


def weight(rows, cols, f):
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)] for r in range(rows)])


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)])


# region: model
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))

    def forward(self, x):
        return self.layers(x)
# endregion: model


def a1_net():
    net = Net()
    with torch.no_grad():
        net.layers[0].weight.copy_(weight(HID, IN, math.sin))
        net.layers[0].bias.copy_(bias(HID))
        net.layers[2].weight.copy_(weight(OUT, HID, math.cos))
        net.layers[2].bias.copy_(bias(OUT))
    return net


def save_sequential(folder: Path):
    net = a1_net()
    # region: save
    torch.save(net.state_dict(), folder / "a1_net.pt")              # layers.0.weight, ...
    save_file({k: v.contiguous() for k, v in net.layers.state_dict().items()},
              folder / "a1_seq.safetensors")                          # 0.weight, ...
    # endregion: save


def nums(t):
    return [float(v) for v in t.detach().flatten().tolist()]


def f32_fnv(model):
    """FNV-1a (64 bit) of the little-endian f32 bytes of every parameter, in PyTorch's order
    and layout ([out, in] weights): equal only if every bit of every weight is equal."""
    h = 0xcbf29ce484222325
    for p in model.parameters():
        vals = p.detach().flatten().tolist()
        for byte in struct.pack(f"<{len(vals)}f", *vals):
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def bits(m):
    return [p.detach().view(torch.int32).flatten().tolist() for p in m.parameters()]


if __name__ == "__main__":
    x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

    # 1. Checkpoints to one path.
    model = a1_net()
    saves = []
    # region: checkpoint
    for step in range(1, 4):
        with torch.no_grad():          # stands in for one optimizer step
            for p in model.parameters():
                p.add_(0.01)
        torch.save(model.state_dict(), "checkpoint.pt")        # the same path every step
        save_file(model.state_dict(), "checkpoint.safetensors")
        saves.append(f"step {step}: saved")
    # endregion: checkpoint
    files = sorted(os.listdir("."))
    # region: reload
    last = Net()
    last.load_state_dict(torch.load("checkpoint.pt"))
    # endregion: reload
    from_st = Net()
    from_st.load_state_dict(load_file("checkpoint.safetensors"))

    # 2. nn.Sequential keys.
    save_sequential(Path("."))
    # region: load
    state = torch.load("a1_net.pt")
    net = Net()
    net.load_state_dict(state)
    with torch.no_grad():
        logits = net(x)
    # endregion: load
    seq = nn.Sequential(nn.Linear(IN, HID), nn.ReLU(), nn.Linear(HID, OUT))
    seq_state = load_file("a1_seq.safetensors")
    seq.load_state_dict(seq_state)
    with torch.no_grad():
        logits_seq = seq(x)

    print(json.dumps({
        "checkpoint": {
            "saves": saves,
            "files": files,
            "reloaded_is_last_step": bits(last) == bits(model) == bits(from_st),
        },
        "keys": {"net_pt": sorted(state.keys()), "seq_safetensors": sorted(seq_state.keys())},
        "weights_fnv": f32_fnv(net),
        "logits": nums(logits),
        "logits_seq": nums(logits_seq),
    }, indent=1))
