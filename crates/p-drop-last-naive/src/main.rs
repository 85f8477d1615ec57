//! drop_last.py's loader ported to burn as it is usually written: DataLoaderBuilder has no
//! drop_last, so it is left out; shuffle(seed) and num_workers(2) as in PyTorch.
//! 10 items (item i has value i), batch size 4, 40 epochs. Each batch records the worker
//! thread that built it. Prints the same JSON structure as drop_last.py.
use std::collections::{BTreeMap, BTreeSet};

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::InMemDataset;
use burn::prelude::*;
use serde_json::{json, Value};

const N: usize = 10;
const BATCH: usize = 4;
const WORKERS: usize = 2;
const SEED: u64 = 3;
const EPOCHS: usize = 40;
const SEEDS: [u64; 5] = [0, 1, 2, 4, 5]; // a few more seeds, EPOCHS epochs each

/// One batch: the worker thread that built it (-1: the calling thread) and its items.
#[derive(Clone, Debug)]
struct Tagged {
    worker: i64,
    values: Tensor<1, Int>,
}

#[derive(Clone)]
struct TaggedBatcher;

impl Batcher<i64, Tagged> for TaggedBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tagged {
        // Worker threads are named "dataloader-<index>".
        let name = std::thread::current().name().unwrap_or("").to_string();
        let worker = name.strip_prefix("dataloader-").map_or(-1, |i| i.parse().unwrap());
        let n = items.len();
        let values = Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device);
        Tagged { worker, values }
    }
}

type Epoch = Vec<(i64, Vec<i64>)>; // (worker, items) per batch, in arrival order

fn pass(loader: &dyn burn::data::dataloader::DataLoader<Tagged>) -> Epoch {
    loader
        .iter()
        .map(|b| {
            let b = b.unwrap();
            (b.worker, b.values.into_data().try_into_vec_as::<i64>().unwrap())
        })
        .collect()
}

fn run(seed: u64, epochs: usize) -> Vec<Epoch> {
    // region: loader
    let loader = DataLoaderBuilder::new(TaggedBatcher)
        .batch_size(BATCH)
        .shuffle(seed)
        .num_workers(WORKERS)
        .set_device(Device::flex())
        .build(InMemDataset::new((0..N as i64).collect()));
    // One epoch: one call to iter().
    (0..epochs).map(|_| pass(loader.as_ref())).collect()
    // endregion: loader
}

/// The same statistics as stats() in drop_last.py.
fn stats(epochs: &[Epoch]) -> Value {
    let mut met: BTreeSet<(i64, i64)> = BTreeSet::new();
    let mut trained = vec![0usize; N];
    for e in epochs {
        for (_, b) in e {
            for &x in b {
                trained[x as usize] += 1;
                for &y in b {
                    if x < y {
                        met.insert((x, y));
                    }
                }
            }
        }
    }
    let never: Vec<[i64; 2]> = (0..N as i64)
        .flat_map(|x| (x + 1..N as i64).map(move |y| (x, y)))
        .filter(|p| !met.contains(p))
        .map(|(x, y)| [x, y])
        .collect();
    let epoch_sizes: BTreeSet<Vec<usize>> = epochs
        .iter()
        .map(|e| {
            let mut s: Vec<usize> = e.iter().map(|(_, b)| b.len()).collect();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s
        })
        .collect();
    let per_epoch: BTreeSet<usize> =
        epochs.iter().map(|e| e.iter().map(|(_, b)| b.len()).sum()).collect();
    let distinct = epochs.iter().all(|e| {
        let items: BTreeSet<i64> = e.iter().flat_map(|(_, b)| b.clone()).collect();
        items.len() == e.iter().map(|(_, b)| b.len()).sum::<usize>()
    });
    json!({
        "epochs": epochs.len(),
        "epoch_sizes": epoch_sizes,
        "items_per_epoch": per_epoch,
        "every_epoch_distinct": distinct,
        "never_met_count": never.len(),
        "never_met": never,
        "never_trained": (0..N).filter(|&i| trained[i] == 0).collect::<Vec<_>>(),
        "times_trained": trained,
    })
}

/// Per worker: the items it delivered over all epochs.
fn worker_items(epochs: &[Epoch]) -> BTreeMap<String, BTreeSet<i64>> {
    let mut m: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    for e in epochs {
        for (w, b) in e {
            m.entry(w.to_string()).or_default().extend(b);
        }
    }
    m
}

/// The pairs that cannot meet if each worker keeps its own items: one from each worker.
fn cross_worker_pairs(items: &BTreeMap<String, BTreeSet<i64>>) -> Vec<[i64; 2]> {
    let owner: BTreeMap<i64, &String> =
        items.iter().flat_map(|(w, s)| s.iter().map(move |&x| (x, w))).collect();
    let mut pairs = vec![];
    for x in 0..N as i64 {
        for y in x + 1..N as i64 {
            if owner[&x] != owner[&y] {
                pairs.push([x, y]);
            }
        }
    }
    pairs
}

/// Per epoch: each worker's batches (the arrival order between workers is not stable).
fn by_worker(e: &Epoch) -> BTreeMap<String, Vec<Vec<i64>>> {
    let mut m: BTreeMap<String, Vec<Vec<i64>>> = BTreeMap::new();
    for (w, b) in e {
        m.entry(w.to_string()).or_default().push(b.clone());
    }
    m
}

fn main() {
    // region: sizes
    let loader = DataLoaderBuilder::new(TaggedBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(InMemDataset::new((0..N as i64).collect()));
    let sizes: Vec<usize> = pass(loader.as_ref()).iter().map(|(_, b)| b.len()).collect();
    // endregion: sizes

    let main = run(SEED, EPOCHS);
    let items = worker_items(&main);
    let st = stats(&main);
    let never_is_cross = st["never_met"] == json!(cross_worker_pairs(&items));

    // region: filter
    // Dropping the short batch in the loop, as on a single thread.
    let filtered: Vec<Epoch> = main
        .iter()
        .map(|e| e.iter().filter(|(_, b)| b.len() == BATCH).cloned().collect())
        .collect();
    // endregion: filter

    let by_seed: BTreeMap<String, Value> = SEEDS
        .iter()
        .map(|&s| {
            let epochs = run(s, EPOCHS);
            let items = worker_items(&epochs);
            let st = stats(&epochs);
            let cross = st["never_met"] == json!(cross_worker_pairs(&items));
            (s.to_string(), json!({
                "never_met_count": st["never_met_count"],
                "never_trained": st["never_trained"],
                "worker_items": items,
                "never_met_is_cross_worker": cross,
            }))
        })
        .collect();

    // Three workers: 10 items make 3 batches, one per worker.
    let three = {
        let loader = DataLoaderBuilder::new(TaggedBatcher)
            .batch_size(BATCH)
            .shuffle(SEED)
            .num_workers(3)
            .set_device(Device::flex())
            .build(InMemDataset::new((0..N as i64).collect()));
        let epochs: Vec<Epoch> = (0..EPOCHS).map(|_| pass(loader.as_ref())).collect();
        let sets: BTreeSet<Vec<i64>> = epochs
            .iter()
            .flat_map(|e| e.iter().map(|(_, b)| {
                let mut s = b.clone();
                s.sort_unstable();
                s
            }))
            .collect();
        json!({"distinct_batch_count": sets.len(), "distinct_batches": sets, "first_epochs": epochs[..3].iter().map(by_worker).collect::<Vec<_>>()})
    };

    let arrival: Vec<Vec<i64>> =
        main[..3].iter().map(|e| e.iter().map(|(w, _)| *w).collect()).collect();
    let out = json!({
        "config": {"n": N, "batch_size": BATCH, "num_workers": WORKERS, "seed": SEED,
                   "epochs": EPOCHS, "pairs": N * (N - 1) / 2},
        "sizes_unshuffled": sizes,
        "first_epochs_by_worker": main[..3].iter().map(by_worker).collect::<Vec<_>>(),
        "worker_item_counts": items.values().map(BTreeSet::len).collect::<Vec<_>>(),
        "worker_items": items,
        "never_met_is_cross_worker": never_is_cross,
        "stats": st,
        "filtered": stats(&filtered),
        "by_seed": by_seed,
        "three_workers": three,
        "arrival": arrival,
    });
    println!("{out}");
}
