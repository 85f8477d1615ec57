//! A drop-last batch strategy: BatchStrategy is a public trait and BatchDataLoader::new /
//! MultiThreadDataLoader::new take any Box<dyn BatchStrategy<I>>, so the short last batch can be
//! dropped before the Batcher ever sees it. 10 items (item i has value i), batch size 4.
//! Prints the same JSON structure as experiments/data/drop_last.py (plus the filter_* fields).
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{
    BatchDataLoader, BatchStrategy, DataLoader, DataLoaderBuilder, MultiThreadDataLoader,
};
use burn::data::dataset::InMemDataset;
use burn::prelude::*;
use serde_json::json;

const N: usize = 10;
const BATCH: usize = 4;

// region: strategy
/// FixBatchStrategy, except that a short batch is thrown away instead of being forced out.
struct DropLast<I> {
    items: Vec<I>,
    batch_size: usize,
}

impl<I> DropLast<I> {
    fn new(batch_size: usize) -> Self {
        Self { items: Vec::with_capacity(batch_size), batch_size }
    }
}

impl<I: Send + Sync + 'static> BatchStrategy<I> for DropLast<I> {
    fn add(&mut self, item: I) {
        self.items.push(item);
    }

    fn batch(&mut self, force: bool) -> Option<Vec<I>> {
        if self.items.len() < self.batch_size {
            if force {
                self.items.clear(); // the dataset is exhausted: drop the remainder
            }
            return None;
        }
        Some(std::mem::replace(&mut self.items, Vec::with_capacity(self.batch_size)))
    }

    fn clone_dyn(&self) -> Box<dyn BatchStrategy<I>> {
        Box::new(Self::new(self.batch_size))
    }

    fn batch_size(&self) -> Option<usize> {
        Some(self.batch_size)
    }
}
// endregion: strategy

/// The Batcher of d06-batches, plus a counter of how many batches it was asked to build.
#[derive(Clone)]
struct CountingBatcher {
    calls: Arc<AtomicUsize>,
}

impl Batcher<i64, Tensor<1, Int>> for CountingBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let n = items.len();
        Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
    }
}

fn values(t: Tensor<1, Int>) -> Vec<i64> {
    t.into_data().try_into_vec_as::<i64>().unwrap()
}

fn main() {
    let items: Vec<i64> = (0..N as i64).collect();
    let calls = Arc::new(AtomicUsize::new(0));
    let batcher = CountingBatcher { calls: calls.clone() };

    // region: loader
    let loader = BatchDataLoader::new(
        Box::new(DropLast::new(BATCH)),            // strategy
        Arc::new(InMemDataset::new(items.clone())), // dataset
        Arc::new(batcher.clone()),                  // batcher
        Device::flex(),                             // device
        None,                                       // rng: Some(StdRng) would shuffle
    );
    let batches: Vec<Vec<i64>> = loader.iter().map(|b| values(b.unwrap())).collect();
    // endregion: loader
    let batcher_calls = calls.swap(0, Ordering::SeqCst);

    // region: workers
    let workers = MultiThreadDataLoader::new(
        Box::new(DropLast::new(BATCH)),
        Arc::new(InMemDataset::new(items.clone())),
        Arc::new(batcher.clone()),
        2, // num_threads
        Device::flex(),
        None,
    );
    let mut workers_batches: Vec<Vec<i64>> = workers.iter().map(|b| values(b.unwrap())).collect();
    workers_batches.sort(); // arrival order depends on thread scheduling
    // endregion: workers
    calls.store(0, Ordering::SeqCst);

    // region: filter
    // The skip-in-the-loop way (d06-batches): the short batch is built, then thrown away.
    let built = DataLoaderBuilder::new(batcher.clone())
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(InMemDataset::new(items));
    let filtered: Vec<Vec<i64>> = built
        .iter()
        .map(|b| b.unwrap())
        .filter(|t| t.dims()[0] == BATCH)
        .map(values)
        .collect();
    // endregion: filter
    let filter_calls = calls.load(Ordering::SeqCst);

    let out = json!({
        "batches": batches,
        "sizes": batches.iter().map(Vec::len).collect::<Vec<_>>(),
        "num_batches": batches.len(),
        "batcher_calls": batcher_calls,
        "workers_batches_sorted": workers_batches,
        "filter_batches": filtered,
        "filter_batcher_calls": filter_calls,
    });
    println!("{out}");
}
