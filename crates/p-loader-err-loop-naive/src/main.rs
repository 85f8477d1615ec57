//! loader_err_loop.py's log-and-continue loop, ported to burn: 16 records, record 9 cannot be
//! read, batch size 4, no workers. The loop never ends: the build kills it at the manifest's
//! timeout. A watchdog thread writes, once a second on stderr, whether the count still grows, and one
//! JSON object on stdout after SNAPSHOT_S seconds, then nothing more (the only stdout there is, so the build
//! stores it as this side's JSON even though the run times out).
use std::collections::BTreeSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoaderBuilder, Progress};
use burn::data::dataset::{Dataset, DatasetError};
use burn::prelude::*;
use serde_json::json;

const N: usize = 16;
const BATCH: usize = 4;
const BAD: usize = 9;
const SNAPSHOT_S: u64 = 15; // the manifest's timeout is 20 s

// region: dataset
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
// endregion: dataset

#[derive(Clone)]
struct ValueBatcher;

impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
        let n = items.len();
        Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
    }
}

// What the loop did so far, shared with the watchdog thread.
static ERRORS: AtomicU64 = AtomicU64::new(0);
static DISTINCT: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
static AT_ITEMS: Mutex<BTreeSet<usize>> = Mutex::new(BTreeSet::new());
static TRAINED: Mutex<Vec<Vec<i64>>> = Mutex::new(Vec::new());
static ENDED: AtomicBool = AtomicBool::new(false);

/// The "log" of the log-and-continue loop: it counts every error, keeps the distinct
/// messages and loader positions, and prints a line at the 1st, 10th, ... 100000th error.
fn log_skip(err: &DatasetError, progress: Progress) {
    let n = ERRORS.fetch_add(1, Ordering::Relaxed) + 1;
    let msg = err.to_string();
    let digits = n.to_string();
    // Up to the 100000th only: every machine gets that far, so stderr is the same everywhere.
    if n <= 100_000 && digits[1..].chars().all(|c| c == '0') && digits.starts_with('1') {
        eprintln!("skipped a batch (error #{n}, at {}/{} items): {msg}",
                  progress.items_processed, progress.items_total);
    }
    DISTINCT.lock().unwrap().insert(msg);
    AT_ITEMS.lock().unwrap().insert(progress.items_processed);
}

fn train_on(batch: Tensor<1, Int>) {
    let v = batch.into_data().try_into_vec_as::<i64>().unwrap();
    TRAINED.lock().unwrap().push(v);
}

fn watchdog() {
    let t0 = Instant::now();
    let mut last = 0;
    for s in 1..=SNAPSHOT_S {
        std::thread::sleep(Duration::from_secs(s) - t0.elapsed().min(Duration::from_secs(s)));
        // The count itself depends on the machine's speed: it goes to stdout at SNAPSHOT_S
        // (a volatile field), and stderr says only whether it still grows.
        let now = ERRORS.load(Ordering::Relaxed);
        eprintln!("[watchdog {s} s] {}", if now > last { "still erroring, count growing" } else { "no new errors" });
        last = now;
    }
    let out = json!({
        "config": {"n": N, "batch_size": BATCH, "bad_item": BAD},
        "snapshot_after_s": SNAPSHOT_S,
        "log_and_continue": {
            "ended": ENDED.load(Ordering::Relaxed),
            "distinct_errors": *DISTINCT.lock().unwrap(),
            "error_at_items": *AT_ITEMS.lock().unwrap(),
            "trained": *TRAINED.lock().unwrap(),
        },
        "errors_at_snapshot": ERRORS.load(Ordering::Relaxed),
    });
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", serde_json::to_string_pretty(&out).unwrap()).unwrap();
    stdout.flush().unwrap();
    // Then nothing more until the build kills the process: a line written after the snapshot
    // would race the kill at the timeout (a loaded machine printed one fewer), and what this
    // side prints must be the same on every machine.
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn main() {
    std::thread::spawn(watchdog);
    let dataset = Records;

    // region: loop
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(BATCH)
        .set_device(Device::flex())
        .build(dataset);
    let mut batches = loader.iter();
    while let Some(batch) = batches.next() {
        let batch = match batch {
            Ok(batch) => batch,
            Err(err) => {
                log_skip(&err, batches.progress()); // log it and go on with the next batch
                continue;
            }
        };
        train_on(batch);
    }
    // endregion: loop

    // Never reached on burn 0.22.1. If it were, the run would end before the timeout,
    // and the manifest's `expect: timeout` would fail the build.
    ENDED.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_secs(SNAPSHOT_S + 1));
}
