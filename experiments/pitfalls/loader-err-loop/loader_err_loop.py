"""A dataset of 16 records where record 9 cannot be read, behind a DataLoader with batch
size 4 (no workers): what a log-and-continue loop does, what a plain for loop does, and
skipping the bad record by checking the dataset once before loading.

Prints the same JSON structure as crates/p-loader-err-loop-fix (the fields it compares).
"""
import json

from torch.utils.data import DataLoader, Dataset, Subset

N, BATCH, BAD = 16, 4, 9


# region: dataset
class Records(Dataset):
    """Record i is the number i; record 9 is corrupt: reading it raises."""

    def __len__(self):
        return N

    def __getitem__(self, i):
        if i == BAD:
            raise ValueError(f"item {i}: corrupt record")
        return i
# endregion: dataset


records = Records()

# region: loop
loader = DataLoader(records, batch_size=BATCH)
batches = iter(loader)
trained, skipped = [], []
while True:
    try:
        batch = next(batches)
    except StopIteration:
        break
    except ValueError as err:
        skipped.append(str(err))  # log it and go on with the next batch
        continue
    trained.append(batch.tolist())
# endregion: loop

# region: stop
stop_trained, stop_error = [], None
try:
    for batch in DataLoader(records, batch_size=BATCH):
        stop_trained.append(batch.tolist())
except ValueError as err:
    stop_error = str(err)  # the loop ends at the first error
# endregion: stop

# region: skip
good, bad = [], []
for i in range(len(records)):
    try:
        records[i]
        good.append(i)
    except ValueError:
        bad.append(i)
clean = DataLoader(Subset(records, good), batch_size=BATCH)
skip_batches = [b.tolist() for b in clean]
# endregion: skip

print(json.dumps({
    "config": {"n": N, "batch_size": BATCH, "bad_item": BAD},
    "log_and_continue": {
        "ended": True,
        "errors": len(skipped),
        "distinct_errors": sorted(set(skipped)),
        "trained": trained,
    },
    "stop": {"trained": stop_trained, "error": stop_error},
    "skip": {"bad_items": bad, "batches": skip_batches},
}, indent=1))
