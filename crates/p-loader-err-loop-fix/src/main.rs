//! The same 16 records (record 9 cannot be read), batch size 4: stop at the first error;
//! skip the bad record by checking the dataset once before loading; a guard that ends a
//! log-and-continue loop when the loader did not move; and the same loop with 2 workers.
//! Prints the same JSON structure as experiments/pitfalls/loader-err-loop/loader_err_loop.py.
use std::collections::BTreeSet;

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::transform::SelectionDataset;
use burn::data::dataset::{Dataset, DatasetError};
use burn::prelude::*;
use serde_json::json;

const N: usize = 16;
const BATCH: usize = 4;
const BAD: usize = 9;
const MAX_ERRORS: usize = 1000; // a safety net for the guarded loop below

/// Record i is the number i; record 9 is corrupt: reading it fails.
struct Records;

impl Dataset<i64> for Records {
    fn get(&self, index: usize) -> Result<i64, DatasetError> {
        if index == BAD {
            let msg = format!("item {index}: corrupt record");
            return Err(DatasetError::new(std::io::Error::other(msg)));
        }
        Ok(index as i64)
    }

    fn len(&self) -> usize {
        N
    }
}

#[derive(Clone)]
struct ValueBatcher;

impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
        let n = items.len();
        Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
    }
}

fn values(t: Tensor<1, Int>) -> Vec<i64> {
    t.into_data().try_into_vec_as::<i64>().unwrap()
}

fn main() {
    // region: stop
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(Records);
    let (mut stop_trained, mut stop_error) = (vec![], None);
    for batch in loader.iter() {
        match batch {
            Ok(batch) => stop_trained.push(values(batch)),
            Err(err) => {
                stop_error = Some(err.to_string()); // the loop ends at the first error
                break;
            }
        }
    }
    // endregion: stop

    // region: skip
    let records = Records;
    let (mut good, mut bad) = (vec![], vec![]);
    for i in 0..records.len() {
        match records.get(i) {
            Ok(_) => good.push(i),
            Err(_) => bad.push(i),
        }
    }
    let clean = SelectionDataset::from_indices_checked(records, good);
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(clean);
    let skip_batches: Vec<Vec<i64>> = loader.iter().map(|b| values(b.unwrap())).collect();
    // endregion: skip

    // region: guard
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(Records);
    let mut batches = loader.iter();
    let (mut guard_trained, mut errors, mut last_err_at) = (vec![], 0, None);
    let mut stuck_at = None;
    while let Some(batch) = batches.next() {
        match batch {
            Ok(batch) => guard_trained.push(values(batch)),
            Err(err) => {
                errors += 1;
                let at = batches.progress().items_processed;
                if last_err_at == Some(at) || errors >= MAX_ERRORS {
                    // The loader did not move since the last error: it never will.
                    stuck_at = Some(at);
                    eprintln!("loader stuck at item {at}: {err}");
                    break;
                }
                last_err_at = Some(at);
                eprintln!("skipped a batch at item {at}: {err}");
            }
        }
    }
    // endregion: guard

    // The log-and-continue loop of the naive port, on 2 worker threads.
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .num_workers(2)
        .set_device(Device::flex())
        .build(Records);
    let (mut w_items, mut w_errors) = (BTreeSet::new(), vec![]);
    for batch in loader.iter() {
        match batch {
            Ok(batch) => w_items.extend(values(batch)),
            Err(err) => w_errors.push(err.to_string()),
        }
    }

    let out = json!({
        "config": {"n": N, "batch_size": BATCH, "bad_item": BAD},
        "stop": {"trained": stop_trained, "error": stop_error},
        "skip": {"bad_items": bad, "batches": skip_batches},
        "guard": {"ended": true, "errors_seen": errors, "stuck_at_items": stuck_at,
                  "trained": guard_trained},
        "workers2": {"ended": true, "errors": w_errors, "items_trained": w_items,
                     "items_lost": (0..N as i64).filter(|i| !w_items.contains(i)).collect::<Vec<_>>()},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
