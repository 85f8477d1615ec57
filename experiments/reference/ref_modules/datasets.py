"""数据集与采样：ref-8-modules/datasets.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def split_facts(parts):
    idx = [sorted(int(i) for i in p) for p in parts]
    union = sorted(i for p in idx for i in p)
    return {"lens": [len(p) for p in parts], "union": union,
            "disjoint": len(union) == len(set(union))}


@row
def random_split_lengths():
    parts = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(0))
    return split_facts(parts)


@row
def random_split_fractions():
    parts = random_split(range(10), [0.75, 0.25], generator=torch.Generator().manual_seed(0))
    return split_facts(parts)


@row
def subset():
    ds = Subset(list(range(10, 20)), [1, 3, 5, 7])
    return {"len": len(ds), "items": [ds[i] for i in range(len(ds))]}


@row
def concat_dataset():
    ds = ConcatDataset([list(range(4)), list(range(10, 13))])
    return {"len": len(ds), "items": [ds[i] for i in range(len(ds))]}


@row
def tensor_dataset():
    ds = TensorDataset(data(5, 3), torch.arange(5) * 10)
    x, y = ds[2]
    return {"len": len(ds), "x": flat(x), "y": int(y)}


class Squares(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return i, i * i


@row
def custom_dataset():
    ds = Squares()
    return {"len": len(ds), "items": [list(ds[i]) for i in range(len(ds))]}


@row
def weighted_random_sampler():
    n = 30000
    s = WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=n, replacement=True,
                              generator=torch.Generator().manual_seed(0))
    idx = torch.tensor(list(s))
    return {"len": len(idx), "fractions": [float((idx == k).sum()) / n for k in range(3)]}


@row
def dataloader_num_workers():
    loader = DataLoader(list(range(10)), batch_size=4, num_workers=2)
    batches = [[int(v) for v in b] for b in loader]
    return {"batches": sorted(batches), "n_batches": len(batches)}


@row
def pad_sequence():
    seqs = [data(3, 2), data(1, 2, phase=10.0), data(2, 2, phase=20.0)]
    y = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0.0)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def pack_padded_sequence():
    lstm = nn.LSTM(3, 4, batch_first=True)
    setp(lstm.weight_ih_l0, 10.0)
    setp(lstm.weight_hh_l0, 20.0)
    setp(lstm.bias_ih_l0, 30.0)
    setp(lstm.bias_hh_l0, 40.0)
    x = data(2, 5, 3) * 2
    lengths = torch.tensor([3, 5])
    packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    out, (h, c) = lstm(packed)
    y, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    return {"y": flat(y), "shape": list(y.shape), "h_n": flat(h), "c_n": flat(c)}


def distributed_shards():
    from torch.utils.data.distributed import DistributedSampler
    ds = list(range(10))
    return [list(DistributedSampler(ds, num_replicas=3, rank=r, shuffle=False)) for r in range(3)]


def shard_facts(shards):
    # How many samples each replica gets, and which replica first gets sample i.
    first = {}
    for r, s in enumerate(shards):
        for i in s:
            first.setdefault(i, r)
    return {"lens": [len(s) for s in shards], "rank_of": [first[i] for i in range(10)]}


@row
def distributed_sampler_naive():
    return shard_facts(distributed_shards())


@row
def distributed_sampler():
    shards = distributed_shards()
    return {**shard_facts(shards), "shards": shards}
