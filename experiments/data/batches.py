"""A Dataset of 10 items (item i has value i) and a DataLoader with batch size 4:
len/getitem, the batches in order and their sizes, with drop_last False and True.

Prints the same JSON structure as crates/d06-batches (plus the drop_last=True run).
"""
import json

import torch
from torch.utils.data import DataLoader, Dataset

N, BATCH = 10, 4


# region: dataset
class Values(Dataset):
    def __init__(self, n):
        self.items = list(range(n))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


dataset = Values(N)
length = len(dataset)
item3 = dataset[3]
# endregion: dataset

# region: loader
loader = DataLoader(dataset, batch_size=BATCH)  # drop_last=False is the default
batches = [b.tolist() for b in loader]
sizes = [len(b) for b in batches]
# endregion: loader

# region: drop_last
loader_drop = DataLoader(dataset, batch_size=BATCH, drop_last=True)
batches_drop = [b.tolist() for b in loader_drop]
sizes_drop = [len(b) for b in batches_drop]
# endregion: drop_last

out = {
    "len": length,
    "item3": item3,
    "num_items": len(loader.dataset),
    "batches": batches,
    "sizes": sizes,
    "num_batches": len(loader),
    "batch_dtype": str(next(iter(loader)).dtype),
    "batches_drop_last": batches_drop,
    "sizes_drop_last": sizes_drop,
    "num_batches_drop_last": len(loader_drop),
}
print(json.dumps(out))
