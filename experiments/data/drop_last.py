"""DataLoader(drop_last=True) over 10 items (item i has value i), batch size 4, with and
without workers; a counting collate_fn says how many batches were collated at all.

Prints the same JSON structure as crates/d06-drop-last (its filter_* fields are burn-only).
"""
import json

from torch.utils.data import DataLoader, Dataset
from torch.utils.data import default_collate

N, BATCH = 10, 4


class Values(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return i


calls = 0


def counting_collate(items):
    global calls
    calls += 1
    return default_collate(items)


# region: loader
loader = DataLoader(Values(), batch_size=BATCH, drop_last=True, collate_fn=counting_collate)
batches = [b.tolist() for b in loader]
# endregion: loader
batcher_calls = calls

# region: workers
workers = DataLoader(Values(), batch_size=BATCH, drop_last=True, num_workers=2)
workers_batches = sorted(b.tolist() for b in workers)
# endregion: workers

print(json.dumps({
    "batches": batches,
    "sizes": [len(b) for b in batches],
    "num_batches": len(batches),
    "batcher_calls": batcher_calls,
    "workers_batches_sorted": workers_batches,
}))
