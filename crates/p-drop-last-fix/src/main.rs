//! drop_last.py's loader (shuffle, drop_last=True, 2 workers) done by hand in burn: every
//! epoch, shuffle the whole dataset with a new seed, cut it to a whole number of batches,
//! and hand that to a loader with 2 workers and no shuffle of its own.
//! 10 items (item i has value i), batch size 4, 40 epochs. Prints the same JSON structure
//! as drop_last.py.
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::transform::{PartialDataset, ShuffledDataset};
use burn::data::dataset::{Dataset, InMemDataset};
use burn::prelude::*;
use serde_json::{json, Value};

const N: usize = 10;
const BATCH: usize = 4;
const WORKERS: usize = 2;
const SEED: u64 = 3;
const EPOCHS: usize = 40;
const SEEDS: [u64; 2] = [0, 1]; // a few more seeds, EPOCHS epochs each

#[derive(Clone, Debug)]
struct Tagged {
    worker: i64,
    values: Tensor<1, Int>,
}

#[derive(Clone)]
struct TaggedBatcher;

impl Batcher<i64, Tagged> for TaggedBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tagged {
        let name = std::thread::current().name().unwrap_or("").to_string();
        let worker = name.strip_prefix("dataloader-").map_or(-1, |i| i.parse().unwrap());
        let n = items.len();
        let values = Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device);
        Tagged { worker, values }
    }
}

type Epoch = Vec<(i64, Vec<i64>)>;

fn pass(loader: &dyn DataLoader<Tagged>) -> Epoch {
    loader
        .iter()
        .map(|b| {
            let b = b.unwrap();
            (b.worker, b.values.into_data().try_into_vec_as::<i64>().unwrap())
        })
        .collect()
}

// region: epoch
/// One epoch's loader: the whole dataset shuffled with this epoch's seed, then cut to a
/// whole number of batches (drop_last), split over the workers as it is.
fn epoch_loader(
    dataset: Arc<InMemDataset<i64>>,
    seed: u64,
    epoch: usize,
) -> Arc<dyn DataLoader<Tagged>> {
    let shuffled = ShuffledDataset::new(dataset, seed.wrapping_mul(1_000_003) + epoch as u64);
    let keep = shuffled.len() / BATCH * BATCH; // drop_last: whole batches only
    let cut = PartialDataset::new(shuffled, 0, keep);
    DataLoaderBuilder::new(TaggedBatcher)
        .batch_size(BATCH)
        .num_workers(WORKERS)
        .set_device(Device::flex())
        .build(cut)
}
// endregion: epoch

fn run(seed: u64, epochs: usize) -> Vec<Epoch> {
    // region: loop
    let dataset = Arc::new(InMemDataset::new((0..N as i64).collect()));
    (0..epochs)
        .map(|epoch| pass(epoch_loader(dataset.clone(), seed, epoch).as_ref()))
        .collect()
    // endregion: loop
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

fn by_worker(e: &Epoch) -> BTreeMap<String, Vec<Vec<i64>>> {
    let mut m: BTreeMap<String, Vec<Vec<i64>>> = BTreeMap::new();
    for (w, b) in e {
        m.entry(w.to_string()).or_default().push(b.clone());
    }
    m
}

fn main() {
    let main = run(SEED, EPOCHS);
    // region: check
    for e in &main {
        let sizes: Vec<usize> = e.iter().map(|(_, b)| b.len()).collect();
        assert!(sizes.iter().all(|&s| s == BATCH), "a short batch got through: {sizes:?}");
    }
    // endregion: check
    // Which items each worker delivered, per epoch: they change from epoch to epoch.
    let worker1_sets: BTreeSet<Vec<i64>> = main
        .iter()
        .map(|e| {
            let mut s: Vec<i64> =
                e.iter().filter(|(w, _)| *w == 1).flat_map(|(_, b)| b.clone()).collect();
            s.sort_unstable();
            s
        })
        .collect();
    let by_seed: BTreeMap<String, Value> = SEEDS
        .iter()
        .map(|&s| {
            let st = stats(&run(s, EPOCHS));
            (s.to_string(), json!({"never_met_count": st["never_met_count"],
                                   "never_trained": st["never_trained"]}))
        })
        .collect();
    let out = json!({
        "config": {"n": N, "batch_size": BATCH, "num_workers": WORKERS, "seed": SEED,
                   "epochs": EPOCHS, "pairs": N * (N - 1) / 2},
        "first_epochs_by_worker": main[..3].iter().map(by_worker).collect::<Vec<_>>(),
        "worker1_distinct_item_sets": worker1_sets.len(),
        "stats": stats(&main),
        "by_seed": by_seed,
    });
    println!("{out}");
}
