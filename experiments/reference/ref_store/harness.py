"""The torch → burn map, rows for PyTorch files and mixed precision: what every topic module imports. Each
row is one function in the module of its topic (<topic>.py, as ref-5-store/<topic>.yaml).

Three groups, each against files committed in crates/ref-store/data:
- 载入 PyTorch 的权重: zoo.pt, a state_dict that make_store_weights.py saved from Zoo (seeded
  init, then a few training-mode BatchNorm passes so its running stats are not 0 and 1). Both
  sides load this one file; forward and backward of each module are compared. ckpt.pt is a
  whole training checkpoint (epoch, a DataParallel model's state_dict, Adam's state_dict) that
  make_checkpoint() writes.
- checkpoint 与微调: each side saves and resumes in its own format; loading a subset, renamed
  keys, strict or not; freezing parameters.
- 导出给 PyTorch: small_export.safetensors, written by the burn program (make_store_weights.py
  runs it). PyTorch loads it with strict=True; its FNV hash must equal that of the file the
  burn program writes in this very run, so a stale copy fails the comparison.
- 混合精度: half-precision files and autocast on the CPU.
Inputs: element k of a tensor with phase p is 0.5·sin(k + 1 + p), rounded to f32 once.
"""
import json
import math
import re
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn

DATA = Path(__file__).resolve().parents[3] / "crates" / "ref-store" / "data"
ROWS = {}


def row(fn):
    ROWS[fn.__name__] = fn
    return fn


def data(*shape, phase=0.0):
    n = math.prod(shape)
    return torch.tensor([0.5 * math.sin(k + 1 + phase) for k in range(n)],
                        dtype=torch.float32).reshape(shape)


def flat(t):
    return [float(x) for x in t.detach().float().flatten().tolist()]


# region: zoo
class Zoo(nn.Module):
    """One module of each kind, under the field names the burn struct uses."""
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.convt = nn.ConvTranspose2d(3, 2, 3, stride=2)
        self.bn = nn.BatchNorm2d(3)
        self.ln = nn.LayerNorm(4)
        self.gn = nn.GroupNorm(2, 4)
        self.emb = nn.Embedding(5, 3)
        self.lstm = nn.LSTM(3, 4, batch_first=True)
# endregion: zoo


class GruZoo(nn.Module):
    """A GRU under the field name the burn side reads its tensors by (gru.weight_ih_l0 …)."""
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 4, batch_first=True)


def make_gru():
    """What make_store_weights.py saves as gru.pt: seeded default init."""
    torch.manual_seed(1)
    return GruZoo()


# region: hub
# A GPT-2-shaped checkpoint as the hub stores it (no transformers needed): keys under
# `transformer.`, Conv1D weights [in, out] (nn.Linear's are [out, in]), lm_head tied to wte and
# left out of the file. V tokens, T positions, width D.
HF_V, HF_T, HF_D = 7, 5, 4
HF_DIR = DATA / "hf"
HF_SHARDS = {"model-00001-of-00002.safetensors": ["transformer.wte.weight", "transformer.wpe.weight"],
             "model-00002-of-00002.safetensors": ["transformer.h.0.mlp.c_proj.weight",
                                                  "transformer.h.0.mlp.c_proj.bias",
                                                  "transformer.ln_f.weight", "transformer.ln_f.bias"]}


def make_hf() -> dict:
    """The tensors, seeded, by hub key."""
    g = torch.Generator().manual_seed(2)
    r = lambda *shape: (torch.rand(*shape, generator=g) - 0.5)  # noqa: E731
    return {"transformer.wte.weight": r(HF_V, HF_D), "transformer.wpe.weight": r(HF_T, HF_D),
            "transformer.h.0.mlp.c_proj.weight": r(HF_D, HF_D), "transformer.h.0.mlp.c_proj.bias": r(HF_D),
            "transformer.ln_f.weight": 1.0 + r(HF_D), "transformer.ln_f.bias": r(HF_D)}


def save_hf():
    """model.safetensors, and the same tensors sharded with the hub's index JSON."""
    sd = make_hf()
    HF_DIR.mkdir(parents=True, exist_ok=True)
    save_file(sd, HF_DIR / "model.safetensors", metadata={"format": "pt"})
    for name, keys in HF_SHARDS.items():
        save_file({k: sd[k] for k in keys}, HF_DIR / name, metadata={"format": "pt"})
    index = {"metadata": {"total_size": sum(t.numel() * 4 for t in sd.values())},
             "weight_map": {k: name for name, keys in HF_SHARDS.items() for k in keys}}
    (HF_DIR / "model.safetensors.index.json").write_text(json.dumps(index, indent=2) + "\n")


def hf_logits(sd, ids):
    """The tiny GPT-2's forward in plain PyTorch: embeddings, one residual Conv1D, ln_f, tied head."""
    p = lambda k: sd["transformer." + k]  # noqa: E731
    h = p("wte.weight")[ids] + p("wpe.weight")[torch.arange(ids.shape[1])]
    h = h + (h @ p("h.0.mlp.c_proj.weight") + p("h.0.mlp.c_proj.bias"))  # Conv1D: x @ W + b
    h = torch.nn.functional.layer_norm(h, (HF_D,), p("ln_f.weight"), p("ln_f.bias"))
    return h @ p("wte.weight").T
# endregion: hub


def make_zoo():
    """What make_store_weights.py saves: seeded default init, non-trivial norm affines and
    BatchNorm statistics from two training-mode passes."""
    torch.manual_seed(0)
    zoo = Zoo()
    with torch.no_grad():
        for norm in (zoo.bn, zoo.ln, zoo.gn):
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.uniform_(-0.5, 0.5)
        zoo.bn.train()
        for _ in range(2):
            zoo.bn(torch.randn(4, 3, 5, 5) * 2 + 1)
    return zoo


class Net(nn.Module):
    """What a training script checkpoints: one Linear, trained a few Adam steps."""
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x):
        return self.lin(x)


def make_checkpoint():
    """What make_store_weights.py saves as ckpt.pt: a training checkpoint written the way
    scripts do, from a model wrapped in nn.DataParallel (keys start with "module.")."""
    torch.manual_seed(1)
    model = nn.DataParallel(Net())
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(3):
        opt.zero_grad()
        (model(data(2, 4)) ** 2).mean().backward()
        opt.step()
    return {"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict()}


# region: small
class Small(nn.Module):
    """The model the burn program builds and exports."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3)
        self.ln = nn.LayerNorm(5)
        self.lin = nn.Linear(5, 2)

    def forward(self, x):
        return self.lin(self.ln(self.bn(self.conv(x))))
# endregion: small


def loaded_zoo():
    # region: load_pt
    zoo = Zoo()
    zoo.load_state_dict(torch.load(DATA / "zoo.pt"))  # strict=True
    # endregion: load_pt
    return zoo


def header(raw: bytes) -> dict:
    """The safetensors header: {name: [dtype, shape]} (the first 8 bytes are its length)."""
    n = int.from_bytes(raw[:8], "little")
    head = json.loads(raw[8:8 + n])
    return {k: [v["dtype"], v["shape"]] for k, v in sorted(head.items()) if k != "__metadata__"}
