//! Shuffling with a seed, in the main thread and with 2 workers, on a Dataset of 10 items
//! (item i has value i), batch size 4. Each batch records the thread that built it.
//! Prints the same JSON structure as experiments/data/shuffle.py.
use std::collections::{BTreeMap, BTreeSet};

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::InMemDataset;
use burn::prelude::*;
use serde_json::{json, Value};

const N: usize = 10;
const BATCH: usize = 4;
const SEED: u64 = 3;
const EPOCHS: usize = 3; // epochs shown in full
const STAT_EPOCHS: usize = 20; // epochs the statistics are taken over

// region: batcher
#[derive(Clone, Debug)]
struct Tagged {
    worker: i64, // -1: built in the calling thread
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
// endregion: batcher

type Epoch = Vec<(i64, Vec<i64>)>; // (worker, items) per batch, in arrival order

fn run(loader: &dyn DataLoader<Tagged>, epochs: usize) -> Vec<Epoch> {
    (0..epochs)
        .map(|_| {
            loader
                .iter()
                .map(|b| {
                    let b = b.unwrap();
                    let v = b.values.into_data().try_into_vec_as::<i64>().unwrap();
                    (b.worker, v)
                })
                .collect()
        })
        .collect()
}

fn order(e: &Epoch) -> Vec<i64> {
    e.iter().flat_map(|(_, b)| b.clone()).collect()
}

fn is_permutation(e: &Epoch) -> bool {
    let mut o = order(e);
    o.sort();
    o == (0..N as i64).collect::<Vec<_>>()
}

/// Per worker: the batches it built in one epoch.
fn by_worker(e: &Epoch) -> BTreeMap<String, Vec<Vec<i64>>> {
    let mut m: BTreeMap<String, Vec<Vec<i64>>> = BTreeMap::new();
    for (w, b) in e {
        m.entry(w.to_string()).or_default().push(b.clone());
    }
    m
}

/// Per worker: the set of items it delivered in one epoch.
fn item_sets(e: &Epoch) -> BTreeMap<String, BTreeSet<i64>> {
    by_worker(e)
        .into_iter()
        .map(|(w, bs)| (w, bs.into_iter().flatten().collect()))
        .collect()
}

fn stats(epochs: &[Epoch]) -> Value {
    let orders: Vec<Vec<i64>> = epochs.iter().map(order).collect();
    let mut sets: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    let mut short: BTreeSet<i64> = BTreeSet::new();
    let mut pairs: BTreeSet<(i64, i64)> = BTreeSet::new();
    let mut first: BTreeSet<i64> = BTreeSet::new();
    for e in epochs {
        for (w, b) in e {
            sets.entry(w.to_string()).or_default().extend(b);
            if b.len() < BATCH {
                short.extend(b);
            }
            for &x in b {
                for &y in b {
                    if x < y {
                        pairs.insert((x, y));
                    }
                }
            }
        }
        first.insert(order(e)[0]);
    }
    let fixed = epochs.iter().all(|e| item_sets(e) == item_sets(&epochs[0]));
    let mut sizes: Vec<usize> = epochs[0].iter().map(|(_, b)| b.len()).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    json!({
        "epochs": epochs.len(),
        "every_epoch_permutation": epochs.iter().all(is_permutation),
        "order_changes_every_epoch": orders.windows(2).all(|w| w[0] != w[1]),
        "sizes_sorted": sizes,
        "items_per_worker": sets,
        "worker_items_fixed": fixed,
        "worker_item_counts": sets.values().map(BTreeSet::len).collect::<Vec<_>>(),
        "short_batch_items": short,
        "first_items": first,
        "pairs_in_same_batch": pairs.len(),
    })
}

fn main() {
    let items: Vec<i64> = (0..N as i64).collect();

    // region: shuffle
    let loader = DataLoaderBuilder::new(TaggedBatcher)
        .batch_size(BATCH)
        .shuffle(SEED)
        .set_device(Device::flex())
        .build(InMemDataset::new(items.clone()));
    let single = run(loader.as_ref(), STAT_EPOCHS);
    // endregion: shuffle

    // region: workers
    let loader = DataLoaderBuilder::new(TaggedBatcher)
        .batch_size(BATCH)
        .shuffle(SEED)
        .num_workers(2)
        .set_device(Device::flex())
        .build(InMemDataset::new(items));
    let workers = run(loader.as_ref(), STAT_EPOCHS);
    // endregion: workers

    let show = |es: &[Epoch]| -> Vec<Value> {
        es[..EPOCHS].iter().map(|e| json!(order(e))).collect()
    };
    // With 2 workers, the order in which the workers' batches arrive depends on thread
    // scheduling, so the stable part is each worker's own batches.
    let show_by_worker = |es: &[Epoch]| -> Vec<Value> {
        es[..EPOCHS].iter().map(|e| json!(by_worker(e))).collect()
    };
    let mut workers_stats = stats(&workers);
    workers_stats.as_object_mut().unwrap().remove("first_items");
    // Which worker's batch arrived first depends on thread scheduling: volatile.
    let arrival: Vec<Vec<i64>> = workers[..EPOCHS]
        .iter()
        .map(|e| e.iter().map(|(w, _)| *w).collect())
        .collect();
    // Which items worker 1 gets, for a few other seeds (one epoch each).
    let worker1_by_seed: BTreeMap<String, Vec<i64>> = (0..8u64)
        .map(|seed| {
            let loader = DataLoaderBuilder::new(TaggedBatcher)
                .batch_size(BATCH)
                .shuffle(seed)
                .num_workers(2)
                .set_device(Device::flex())
                .build(InMemDataset::new((0..N as i64).collect()));
            let sets = item_sets(&run(loader.as_ref(), 1)[0]);
            (seed.to_string(), sets["1"].iter().copied().collect())
        })
        .collect();
    let out = json!({
        "worker1_by_seed": worker1_by_seed,
        "config": {"n": N, "batch_size": BATCH, "seed": SEED, "num_workers": 2},
        "single": {"orders": show(&single), "stats": stats(&single)},
        "workers": {"by_worker": show_by_worker(&workers), "stats": workers_stats},
        "arrival": arrival,
    });
    println!("{out}");
}
