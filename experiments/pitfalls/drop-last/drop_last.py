"""A Dataset of 10 items (item i has value i), batch size 4: the batch sizes with
drop_last False and True, then a shuffled loader with drop_last=True and 2 workers run
for 40 epochs: which items shared a batch, which never did, how often each was trained.

Prints the same JSON structure as crates/p-drop-last-naive and crates/p-drop-last-fix.
"""
import json
from itertools import combinations

import torch
from torch.utils.data import DataLoader, Dataset

N, BATCH, WORKERS = 10, 4, 2
SEED, EPOCHS = 3, 40
SEEDS = [0, 1]  # a few more seeds, EPOCHS epochs each


class Values(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return i


def stats(epochs):
    """What a run of epochs did, from the batches it yielded (each a list of items)."""
    met, trained = set(), [0] * N
    for e in epochs:
        for b in e:
            met.update(combinations(sorted(b), 2))
            for x in b:
                trained[x] += 1
    never = [list(p) for p in combinations(range(N), 2) if p not in met]
    return {
        "epochs": len(epochs),
        # Every distinct list of batch sizes (largest first) an epoch had.
        "epoch_sizes": sorted({tuple(sorted((len(b) for b in e), reverse=True)) for e in epochs}),
        "items_per_epoch": sorted({sum(len(b) for b in e) for e in epochs}),
        "every_epoch_distinct": all(len({x for b in e for x in b}) == sum(map(len, e))
                                    for e in epochs),
        "never_met_count": len(never),
        "never_met": never,
        "never_trained": [i for i in range(N) if trained[i] == 0],
        "times_trained": trained,
    }


# region: sizes
sizes = {}
for drop_last in (False, True):
    loader = DataLoader(Values(), batch_size=BATCH, drop_last=drop_last)
    sizes[f"drop_last_{drop_last}".lower()] = [len(b) for b in loader]
# endregion: sizes


def run(seed, epochs):
    # region: loader
    g = torch.Generator().manual_seed(seed)
    loader = DataLoader(Values(), batch_size=BATCH, shuffle=True, drop_last=True,
                        num_workers=WORKERS, generator=g)
    # One epoch: one pass over the loader.
    return [[b.tolist() for b in loader] for _ in range(epochs)]
    # endregion: loader


if __name__ == "__main__":
    main = run(SEED, EPOCHS)
    by_seed = {}
    for s in SEEDS:
        st = stats(run(s, EPOCHS))
        by_seed[str(s)] = {"never_met_count": st["never_met_count"],
                           "never_trained": st["never_trained"]}
    print(json.dumps({
        "config": {"n": N, "batch_size": BATCH, "num_workers": WORKERS, "seed": SEED,
                   "epochs": EPOCHS, "pairs": N * (N - 1) // 2},
        "sizes_unshuffled": sizes,
        "first_epochs": main[:3],
        "stats": stats(main),
        "by_seed": by_seed,
    }))
