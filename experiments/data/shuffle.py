"""Shuffling with a seed, in the main process and with 2 workers, on a Dataset of 10
items (item i has value i), batch size 4. Each batch records the worker that built it.

Prints the same JSON structure as crates/d06-shuffle.
"""
import json

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

N, BATCH, SEED = 10, 4, 3
EPOCHS = 3  # epochs shown in full
STAT_EPOCHS = 20  # epochs the statistics are taken over


class Values(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return i


# region: batcher
def tagged_collate(items):
    # Runs where the batch is built: in a worker process, or in the main one (-1).
    info = get_worker_info()
    return (info.id if info else -1), torch.tensor(items)
# endregion: batcher


def run(loader, epochs):
    # Per epoch: (worker, items) per batch, in the order the loader yields them.
    return [[(w, b.tolist()) for w, b in loader] for _ in range(epochs)]


def order(e):
    return [x for _, b in e for x in b]


def by_worker(e):
    m = {}
    for w, b in e:
        m.setdefault(str(w), []).append(b)
    return dict(sorted(m.items()))


def item_sets(e):
    return {w: sorted(x for b in bs for x in b) for w, bs in by_worker(e).items()}


def stats(epochs):
    orders = [order(e) for e in epochs]
    sets, short, pairs, first = {}, set(), set(), set()
    for e in epochs:
        for w, b in e:
            sets.setdefault(str(w), set()).update(b)
            if len(b) < BATCH:
                short.update(b)
            pairs.update((x, y) for x in b for y in b if x < y)
        first.add(order(e)[0])
    return {
        "epochs": len(epochs),
        "every_epoch_permutation": all(sorted(o) == list(range(N)) for o in orders),
        "order_changes_every_epoch": all(a != b for a, b in zip(orders, orders[1:])),
        "sizes_sorted": sorted((len(b) for _, b in epochs[0]), reverse=True),
        "items_per_worker": {w: sorted(s) for w, s in sorted(sets.items())},
        "worker_item_counts": [len(s) for _, s in sorted(sets.items())],
        "worker_items_fixed": all(item_sets(e) == item_sets(epochs[0]) for e in epochs),
        "short_batch_items": sorted(short),
        "first_items": sorted(first),
        "pairs_in_same_batch": len(pairs),
    }


if __name__ == "__main__":
    # region: shuffle
    g = torch.Generator().manual_seed(SEED)
    loader = DataLoader(Values(), batch_size=BATCH, shuffle=True, generator=g,
                        collate_fn=tagged_collate)
    single = run(loader, STAT_EPOCHS)
    # endregion: shuffle

    # region: workers
    g = torch.Generator().manual_seed(SEED)
    loader = DataLoader(Values(), batch_size=BATCH, shuffle=True, generator=g,
                        collate_fn=tagged_collate, num_workers=2)
    workers = run(loader, STAT_EPOCHS)
    # endregion: workers

    workers_stats = stats(workers)
    del workers_stats["first_items"]
    print(json.dumps({
        "config": {"n": N, "batch_size": BATCH, "seed": SEED, "num_workers": 2},
        "single": {"orders": [order(e) for e in single[:EPOCHS]], "stats": stats(single)},
        "workers": {"by_worker": [by_worker(e) for e in workers[:EPOCHS]],
                    "stats": workers_stats,
                    # torch only: same seed, same orders as without workers?
                    "same_orders_as_single": [order(e) for e in workers] ==
                                             [order(e) for e in single]},
        "arrival": [[w for w, _ in e] for e in workers[:EPOCHS]],
    }))
