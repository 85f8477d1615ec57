//! RSS over N inference passes of an 8-layer 256→256 Linear/ReLU stack on a batch of 512,
//! in four modes; each mode runs REPEATS times, each run in its own fresh child process, so no two
//! runs share an allocator. Per mode: the growth of each run, its median, min and max.
use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;
use serde_json::{json, Value};
use std::process::Command;

const N: usize = 50;
// Growth of the median run's RSS above which the output says grows_over_100mb (the page reads it).
const THRESHOLD_MB: f64 = 100.0;
const LAYERS: usize = 8;
const WIDTH: usize = 256;
const BATCH: usize = 512;
const REPEATS: usize = 3;

#[derive(Module, Debug)]
struct Stack {
    layers: Vec<Linear>,
}

impl Stack {
    fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
        for layer in &self.layers {
            x = burn::tensor::activation::relu(layer.forward(x));
        }
        x
    }
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1024.0
}

fn build(device: &Device) -> (Stack, Tensor<2>) {
    let layers = (0..LAYERS)
        .map(|l| {
            let w: Vec<f32> = (1..=WIDTH * WIDTH)
                .map(|k| (0.09 * (k as f64 + l as f64).sin()) as f32)
                .collect();
            let w = Tensor::<2>::from_data(TensorData::new(w, [WIDTH, WIDTH]), device);
            Linear {
                weight: Param::from_tensor(w.transpose()),
                bias: Some(Param::from_tensor(Tensor::<1>::zeros([WIDTH], device))),
            }
        })
        .collect();
    let x: Vec<f32> = (1..=BATCH * WIDTH).map(|k| (k as f64).cos() as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, WIDTH]), device);
    (Stack { layers }, x)
}

fn child(mode: &str) {
    let device = Device::flex().autodiff();
    let (model, x) = build(&device);
    let (model, x) = if mode.starts_with("valid") {
        (model.valid(), x.inner()) // parameters and input on the inner (plain) device
    } else {
        (model, x)
    };
    let mut rss = Vec::new();
    let mut kept = Vec::new();
    // region: passes
    for _ in 0..N {
        let out = model.forward(x.clone()); // autodiff model: out carries its graph
        let _m: f32 = out.clone().mean().into_scalar();
        if mode.ends_with("keep") {
            kept.push(out); // keeps out alive, and with it its graph
        } // "drop": out goes out of scope here
        rss.push(rss_mb());
    }
    // endregion: passes
    println!("{}", json!({ "rss_mb": rss }));
}

fn run(exe: &std::path::Path, mode: &str) -> Vec<f64> {
    let out = Command::new(exe).arg(mode).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rss_mb"].clone()).unwrap()
}

fn main() {
    if let Some(mode) = std::env::args().nth(1) {
        child(&mode);
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let modes = ["autodiff_drop", "autodiff_keep", "valid_drop", "valid_keep"];
    // runs interleaved (mode after mode, then again), so a slow patch of the machine hits every mode
    let mut runs: Vec<Vec<Vec<f64>>> = vec![Vec::new(); modes.len()];
    for _ in 0..REPEATS {
        for (i, mode) in modes.iter().enumerate() {
            runs[i].push(run(&exe, mode));
        }
    }
    let mut rss = serde_json::Map::new();
    let mut growth = serde_json::Map::new();
    let mut grows = serde_json::Map::new();
    for (i, mode) in modes.iter().enumerate() {
        let g: Vec<f64> = runs[i].iter().map(|r| r[N - 1] - r[0]).collect();
        let mut order: Vec<usize> = (0..REPEATS).collect();
        order.sort_by(|&a, &b| g[a].total_cmp(&g[b]));
        let med = order[REPEATS / 2]; // REPEATS is odd: the median is one of the runs
        let (min, max) = (g[order[0]], g[order[REPEATS - 1]]);
        growth.insert(
            mode.to_string(),
            json!({"runs": g, "median": g[med], "min": min, "max": max}),
        );
        // a coarse, stable fact drawn from the volatile numbers: did the median run grow by over 100 MB?
        grows.insert(mode.to_string(), json!(g[med] > THRESHOLD_MB));
        // the RSS series of the median run, for the plots
        rss.insert(mode.to_string(), json!(runs[i][med]));
    }
    println!(
        "{}",
        json!({
            "config": {"passes": N, "layers": LAYERS, "width": WIDTH, "batch": BATCH, "repeats": REPEATS},
            "rss_mb": rss,
            "growth_mb": growth,
            "threshold_mb": THRESHOLD_MB,
            "grows_over_100mb": grows,
        })
    );
}
