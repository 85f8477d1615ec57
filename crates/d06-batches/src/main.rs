//! A Dataset of 10 items (item i has value i) and a DataLoader with batch size 4:
//! the dataset's len/get, the batches in order, and their sizes.
//! Prints the same JSON structure as experiments/data/batches.py.
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::{Dataset, InMemDataset};
use burn::prelude::*;
use serde_json::json;

const N: usize = 10;
const BATCH: usize = 4;

// region: batcher
/// Turns a Vec of items into one tensor: what torch's default collate does for ints.
#[derive(Clone)]
struct ValueBatcher;

impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
        let n = items.len();
        Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
    }
}
// endregion: batcher

fn values(t: Tensor<1, Int>) -> Vec<i64> {
    t.into_data().try_into_vec_as::<i64>().unwrap()
}

fn main() {
    // region: dataset
    let items: Vec<i64> = (0..N as i64).collect();
    let dataset = InMemDataset::new(items);
    let len = dataset.len();
    let item3 = dataset.get(3).unwrap();
    // endregion: dataset

    // region: loader
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(dataset);
    let batches: Vec<Vec<i64>> = loader.iter().map(|b| values(b.unwrap())).collect();
    let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
    // endregion: loader

    // region: drop_last
    // No drop_last in burn 0.22.1: skip the short batch in the loop instead.
    let batches_drop: Vec<Vec<i64>> = loader
        .iter()
        .map(|b| b.unwrap())
        .filter(|t| t.dims()[0] == BATCH)
        .map(values)
        .collect();
    let sizes_drop: Vec<usize> = batches_drop.iter().map(Vec::len).collect();
    // endregion: drop_last
    let batch_dtype = format!("{:?}", loader.iter().next().unwrap().unwrap().dtype());

    let out = json!({
        "len": len,
        "item3": item3,
        "num_items": loader.num_items(),
        "batches": batches,
        "sizes": sizes,
        "num_batches": sizes.len(),
        "batch_dtype": batch_dtype,
        "batches_drop_last": batches_drop,
        "sizes_drop_last": sizes_drop,
        "num_batches_drop_last": sizes_drop.len(),
    });
    println!("{out}");
}
