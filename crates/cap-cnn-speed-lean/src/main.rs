//! The wall time of one training epoch of cap-cnn's classifier (20 steps of batch 50,
//! dropout 0) on Device::flex(): WARMUP epochs untimed, then K timed ones.
//!
//! The same file is the source of crates/cap-cnn-speed (burn's default features: Flex with
//! simd and rayon) and crates/cap-cnn-speed-lean (default features off). The model is
//! cap-cnn's, but its weights are burn's own initialisation (burn-store, which reads
//! PyTorch's init.pt, is not in these feature sets) and BatchNorm is burn's plain one.
//! Timing does not depend on the values; the batches are cap-cnn's (data/order.json).
use std::time::Instant;

use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
    Relu,
};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use serde_json::json;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-cnn/data");
const N_TRAIN: usize = 1000;
const BATCH: usize = 50;
const LR: f64 = 3e-3;
const WARMUP: usize = 1;
const K: usize = 5;

/// 8×8 images, pixels 0..16, scaled to [0, 1]; glyphs.bin holds all images, then all labels.
struct Glyphs {
    images: Vec<f32>,
    labels: Vec<i64>,
}

impl Glyphs {
    fn load(count: usize) -> Self {
        let raw = std::fs::read(format!("{DATA}/glyphs.bin")).expect("glyphs.bin");
        let n = raw.len() / 65;
        let images = raw[..count * 64].iter().map(|&p| p as f32 / 16.0).collect();
        let labels = raw[n * 64..n * 64 + count].iter().map(|&l| l as i64).collect();
        Glyphs { images, labels }
    }

    fn batch(&self, idx: &[usize], device: &Device) -> (Tensor<4>, Tensor<1, Int>) {
        let x: Vec<f32> = idx
            .iter()
            .flat_map(|&i| self.images[i * 64..(i + 1) * 64].iter().copied())
            .collect();
        let y: Vec<i64> = idx.iter().map(|&i| self.labels[i]).collect();
        (
            Tensor::from_data(TensorData::new(x, [idx.len(), 1, 8, 8]), device),
            Tensor::from_data(TensorData::new(y, [idx.len()]), device),
        )
    }
}

#[derive(Module, Debug)]
struct Net {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    pool: MaxPool2d,
    dropout: Dropout,
    fc1: Linear,
    fc2: Linear,
    relu: Relu,
}

impl Net {
    fn new(device: &Device) -> Self {
        let conv = |i, o| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .with_bias(false)
                .init(device)
        };
        Net {
            conv1: conv(1, 8),
            bn1: BatchNormConfig::new(8).init(device),
            conv2: conv(8, 16),
            bn2: BatchNormConfig::new(16).init(device),
            pool: MaxPool2dConfig::new([2, 2]).init(),
            dropout: DropoutConfig::new(0.0).init(),
            fc1: LinearConfig::new(16 * 2 * 2, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let x = self.pool.forward(self.relu.forward(self.bn1.forward(self.conv1.forward(x))));
        let x = self.pool.forward(self.relu.forward(self.bn2.forward(self.conv2.forward(x))));
        let x = self.dropout.forward(x.flatten::<2>(1, 3));
        let x = self.relu.forward(self.fc1.forward(x));
        log_softmax(self.fc2.forward(x), 1)
    }
}

fn nll_loss(log_probs: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
    log_probs.gather(1, y.unsqueeze_dim::<2>(1)).neg().mean()
}

/// CPU time (user + system) of the whole process, all threads, in seconds.
/// Fields 14 and 15 of /proc/self/stat, in clock ticks (USER_HZ, 100 per second on Linux).
fn process_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

/// Threads of this process right now: the entries of /proc/self/task.
fn os_threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let device = Device::flex().autodiff();
    device.seed(0);
    let data = Glyphs::load(N_TRAIN);
    let text = std::fs::read_to_string(format!("{DATA}/order.json")).expect("order.json");
    let orders: Vec<Vec<usize>> = serde_json::from_str(&text).expect("order.json");

    let mut model = Net::new(&device);
    let mut optim = AdamConfig::new().with_epsilon(1e-8).init(); // torch's eps
    let (mut seconds, mut losses) = (vec![], vec![]);
    let (mut cpu, mut wall) = (0.0, 0.0);
    for epoch in 0..WARMUP + K {
        let (cpu0, t0) = (process_cpu_seconds(), Instant::now());
        // region: epoch
        for idx in orders[epoch % orders.len()].chunks(BATCH) {
            let (x, y) = data.batch(idx, &device);
            let loss = nll_loss(model.forward(x), y);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(LR, model, grads);
            losses.push(f64::from(loss.into_scalar::<f32>())); // reads back: the step is done
        }
        // endregion: epoch
        if epoch >= WARMUP {
            seconds.push(t0.elapsed().as_secs_f64());
            cpu += process_cpu_seconds() - cpu0;
            wall += t0.elapsed().as_secs_f64();
        }
    }
    let steps = N_TRAIN.div_ceil(BATCH);
    println!("{}", serde_json::to_string_pretty(&json!({
        "crate": env!("CARGO_PKG_NAME"),
        "init": "burn",
        "batchnorm": "burn",
        "warmup_epochs": WARMUP,
        "k": K,
        "batch": BATCH,
        "steps_per_epoch": steps,
        "epoch_seconds": seconds,
        "median_seconds": median(seconds.clone()),
        "loss": {"first": losses[0], "last": *losses.last().unwrap()},
        "learned": losses.last().unwrap() < &losses[0],
        "threads": {
            "os_threads": os_threads(),
            // CPU time of the whole process over wall time, across the timed epochs.
            "cpu_over_wall": cpu / wall,
        },
        "cpu": {
            "avx2": std::arch::is_x86_feature_detected!("avx2"),
            "fma": std::arch::is_x86_feature_detected!("fma"),
            "avx512f": std::arch::is_x86_feature_detected!("avx512f"),
        },
    })).unwrap());
}
