"""Writes the files that crates/cap-cnn commits under data/. Run by hand after changing
the data, the model or the batch order, then commit what it wrote:
- glyphs.bin: 1200 8×8 glyph images of the digits 0-9 (pixels 0..16, like scikit-learn's
  digits), drawn from templates with a seeded shift and noise; then their 1200 labels.
  The first 1000 are the training set, the last 200 the test set;
- init.pt: the state_dict of cnn_train.Net() right after torch.manual_seed(0);
- order.json: the sample indices, epoch by epoch, in the order cnn_train.py's shuffled
  DataLoader hands them out (burn cannot reproduce torch's generator, so it reads them).
"""
import json
from pathlib import Path

import torch
from torch.utils.data import DataLoader

from cnn_train import BATCH, EPOCHS, N_TEST, N_TRAIN, SHUFFLE_SEED, Net

DATA = Path(__file__).resolve().parents[2] / "crates" / "cap-cnn" / "data"

DIGITS = [
    ["..####..", ".##..##.", ".##..##.", ".##..##.", ".##..##.", ".##..##.", "..####..", "........"],
    ["...##...", "..###...", "...##...", "...##...", "...##...", "...##...", "..####..", "........"],
    ["..####..", ".##..##.", ".....##.", "....##..", "...##...", "..##....", ".######.", "........"],
    ["..####..", ".##..##.", ".....##.", "...###..", ".....##.", ".##..##.", "..####..", "........"],
    ["....##..", "...###..", "..#.##..", ".#..##..", ".######.", "....##..", "....##..", "........"],
    [".######.", ".##.....", ".#####..", ".....##.", ".....##.", ".##..##.", "..####..", "........"],
    ["..####..", ".##.....", ".#####..", ".##..##.", ".##..##.", ".##..##.", "..####..", "........"],
    [".######.", ".....##.", "....##..", "...##...", "..##....", "..##....", "..##....", "........"],
    ["..####..", ".##..##.", ".##..##.", "..####..", ".##..##.", ".##..##.", "..####..", "........"],
    ["..####..", ".##..##.", ".##..##.", "..#####.", ".....##.", "....##..", "..###...", "........"],
]


def glyphs(n: int, seed: int = 7) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    templates = torch.tensor([[[c == "#" for c in row] for row in d] for d in DIGITS],
                             dtype=torch.int64) * 13
    labels = torch.randint(0, 10, (n,), generator=g)
    shifts = torch.randint(-1, 2, (n, 2), generator=g)
    noise = torch.randint(0, 5, (n, 8, 8), generator=g)
    images = torch.stack([torch.roll(templates[c], (int(dy), int(dx)), dims=(0, 1))
                          for c, (dy, dx) in zip(labels.tolist(), shifts.tolist())])
    return (images + noise).clamp(max=16).to(torch.uint8), labels.to(torch.uint8)


def loader_order() -> list[list[int]]:
    # The same DataLoader arguments as cnn_train.py, over the indices themselves.
    loader = DataLoader(range(N_TRAIN), batch_size=BATCH, shuffle=True,
                        generator=torch.Generator().manual_seed(SHUFFLE_SEED))
    return [[i for batch in loader for i in batch.tolist()] for _ in range(EPOCHS)]


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    images, labels = glyphs(N_TRAIN + N_TEST)
    (DATA / "glyphs.bin").write_bytes(images.numpy().tobytes() + labels.numpy().tobytes())
    torch.manual_seed(0)
    torch.save(Net().state_dict(), DATA / "init.pt")
    (DATA / "order.json").write_text(json.dumps(loader_order()) + "\n", encoding="utf-8")
    print("wrote", sorted(p.name for p in DATA.iterdir()))
