"""数据加载：ref-4-training/data_loading.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


class Values(Dataset):
    def __len__(self):
        return N

    def __getitem__(self, i):
        return i


@row
def dataset_len_get():
    ds = Values()
    return {"len": len(ds), "item3": ds[3]}


@row
def batches():
    return {"batches": [b.tolist() for b in DataLoader(Values(), batch_size=BATCH)]}


@row
def drop_last():
    return {"batches": [b.tolist() for b in DataLoader(Values(), batch_size=BATCH, drop_last=True)]}


def epochs(n):
    g = torch.Generator().manual_seed(SEED)
    loader = DataLoader(Values(), batch_size=BATCH, shuffle=True, generator=g)
    return [[x for b in loader for x in b.tolist()] for _ in range(n)]


@row
def shuffle_order():
    return {"order": epochs(1)[0]}


@row
def shuffle_order_given():
    # burn's side is handed this order (the values are the indices), as a constant.
    return {"order": epochs(1)[0]}


@row
def shuffle_permutation():
    es = epochs(5)
    return {"every_epoch_permutation": all(sorted(e) == list(range(N)) for e in es),
            "order_changes_every_epoch": all(a != b for a, b in zip(es, es[1:]))}


@row
def shuffle_same_seed():
    return {"same_order": epochs(3) == epochs(3)}
