"""A small character-level language model on the Zen of Python: an LSTM trained with AdamW
and gradient clipping, then greedy generation. The text, the initial weights (init.pt) and
the shuffled window order (order.json) are committed under crates/cap-charlm/data/ by
make_charlm_data.py, so the burn port starts from the same weights and sees the same batches.
"""
import json
import math
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset, Sampler

DATA = Path(__file__).resolve().parents[2] / "crates" / "cap-charlm" / "data"
SEQ, BATCH, STEPS = 32, 16, 60
EMB, HIDDEN = 16, 64
VAL_WINDOWS = 4
LR, WEIGHT_DECAY = 1e-2, 0.01
MAX_NORM = 0.25  # the global gradient norm is 0.2-0.55 here: at 1.0 clipping would never act
PROMPT, GEN_LEN = "Beautiful is ", 80


# region: data
class CharWindows(Dataset):
    """Every window of SEQ characters; the target is the window shifted by one."""

    def __init__(self, ids, stride=1):
        self.ids, self.stride = ids, stride

    def __len__(self):
        return (len(self.ids) - SEQ - 1) // self.stride + 1

    def __getitem__(self, i):
        chunk = self.ids[i * self.stride: i * self.stride + SEQ + 1]
        return chunk[:-1], chunk[1:]


class FileOrder(Sampler):
    """The shuffled order of each epoch, read from order.json instead of torch's RNG."""

    def __init__(self, epochs):
        self.epochs, self.epoch = epochs, 0

    def __len__(self):
        return len(self.epochs[0])

    def __iter__(self):
        order = self.epochs[self.epoch]
        self.epoch += 1
        return iter(order)


def load_text():
    text = (DATA / "zen.txt").read_text(encoding="utf-8")
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    return text, chars, stoi


def split(ids):
    # The last VAL_WINDOWS windows are held out; the training text ends where they begin.
    cut = len(ids) - VAL_WINDOWS * SEQ - 1
    return CharWindows(ids[:cut]), CharWindows(ids[cut:], stride=SEQ)
# endregion: data


# region: model
class CharLM(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, EMB)
        self.lstm = nn.LSTM(EMB, HIDDEN, batch_first=True)
        self.head = nn.Linear(HIDDEN, vocab)

    def forward(self, ids, state=None):
        h, state = self.lstm(self.embed(ids), state)
        return self.head(h), state
# endregion: model


def fnv1a(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def evaluate(model, val):
    x, y = next(iter(DataLoader(val, batch_size=len(val))))
    model.eval()
    with torch.no_grad():
        logits, _ = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)).item()
    model.train()
    return loss


def next_logits(model, text, stoi):
    """The logits for the character after `text`."""
    model.eval()
    with torch.no_grad():
        logits, _ = model(torch.tensor([[stoi[c] for c in text]]))
    model.train()
    return logits[0, -1]


def main():
    text, chars, stoi = load_text()
    ids = torch.tensor([stoi[c] for c in text])
    train, val = split(ids)
    order = json.loads((DATA / "order.json").read_text())["epochs"]
    loader = DataLoader(train, batch_size=BATCH, sampler=FileOrder(order), drop_last=True)

    # region: load
    model = CharLM(len(chars))
    model.load_state_dict(torch.load(DATA / "init.pt", weights_only=True))
    # endregion: load
    logits_init = next_logits(model, PROMPT, stoi)
    val_loss_init = evaluate(model, val)

    # region: loss_optim
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.999), eps=1e-8,
                                  weight_decay=WEIGHT_DECAY)
    # endregion: loss_optim

    # region: loop
    losses, norms, seen, n_seen = [], [], fnv1a(b""), 0
    start = time.perf_counter()
    step = 0
    while step < STEPS:
        for x, y in loader:
            logits, _ = model(x)
            loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
            optimizer.step()
            losses.append(loss.item())
            norms.append(norm.item())
            seen = fnv1a("".join(chars[t] for t in y.flatten().tolist()).encode(), seen)
            n_seen += y.numel()
            step += 1
            if step == STEPS:
                break
    seconds = time.perf_counter() - start
    # endregion: loop

    val_loss = evaluate(model, val)

    # region: checkpoint
    torch.save(model.state_dict(), "charlm.pt")
    restored = CharLM(len(chars))
    restored.load_state_dict(torch.load("charlm.pt", weights_only=True))
    # endregion: checkpoint

    # region: generate
    restored.eval()
    with torch.no_grad():
        prompt = torch.tensor([[stoi[c] for c in PROMPT]])
        logits, state = restored(prompt)
        logits0 = logits[0, -1]
        out, margin = [], math.inf
        for _ in range(GEN_LEN):
            top2 = logits[0, -1].topk(2).values
            margin = min(margin, (top2[0] - top2[1]).item())
            nxt = logits[0, -1].argmax()
            out.append(chars[nxt])
            logits, state = restored(nxt.view(1, 1), state)
    generated = "".join(out)
    # endregion: generate

    print(json.dumps({
        "config": {"steps": STEPS, "batch": BATCH, "seq": SEQ, "max_norm": MAX_NORM, "prompt": PROMPT},
        "vocab": "".join(chars),
        "windows": {"train": len(train), "val": len(val)},
        "targets": {"count": n_seen, "fnv1a": f"{seen:016x}"},
        "loss": {f"step{k + 1:03d}": v for k, v in enumerate(losses)},
        "grad_norm": {f"step{k + 1:03d}": v for k, v in enumerate(norms)},
        "logits_init": logits_init.tolist(),
        "val_loss_init": val_loss_init,
        "final_loss": val_loss,
        "final_ppl": math.exp(val_loss),
        "logits0": logits0.tolist(),
        "generated": generated,
        "gen_min_margin": margin,
        "seconds": seconds,
    }))


if __name__ == "__main__":
    main()
