//! Square f32 matmuls of a few sizes on Device::flex(): a checksum of C, timings, threads.
//! Prints the same JSON structure as experiments/flex/matmul_speed.py.
use std::time::Instant;

use burn::prelude::*;
use serde_json::{json, Map};

const SIZES: [usize; 3] = [64, 256, 1024];
const REPS: usize = 11;

// region: inputs
/// Element k (0-based, row-major) of A is sin(k), of B cos(k): f64, rounded to f32 once.
fn inputs(n: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let make = |f: fn(f64) -> f64| {
        let v: Vec<f32> = (0..n * n).map(|k| f(k as f64) as f32).collect();
        Tensor::<2>::from_data(TensorData::new(v, [n, n]), device)
    };
    (make(f64::sin), make(f64::cos))
}
// endregion: inputs

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

/// FNV-1a over the bit patterns of C: equal only if every f32 is bit for bit the same.
fn fnv1a(values: &[f32]) -> u32 {
    let mut h: u32 = 0x811c9dc5;
    for v in values {
        for byte in v.to_bits().to_le_bytes() {
            h = (h ^ byte as u32).wrapping_mul(0x01000193);
        }
    }
    h
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let device = Device::flex();
    let (mut diag, mut sums, mut bits, mut timings) = (Map::new(), Map::new(), Map::new(), Map::new());
    let (mut cpu, mut wall) = (0.0, 0.0);
    for n in SIZES {
        let (a, b) = inputs(n, &device);
        // region: timing
        let mut c = a.clone().matmul(b.clone()); // warm-up
        let mut times = Vec::with_capacity(REPS);
        let (cpu0, wall0) = (process_cpu_seconds(), Instant::now());
        for _ in 0..REPS {
            let t0 = Instant::now();
            c = a.clone().matmul(b.clone());
            device.sync().unwrap();
            times.push(t0.elapsed().as_secs_f64());
        }
        (cpu, wall) = (process_cpu_seconds() - cpu0, wall0.elapsed().as_secs_f64());
        // endregion: timing
        let ms: Vec<f64> = times.iter().map(|t| t * 1e3).collect();
        let (lo, hi) = (ms.iter().cloned().fold(f64::MAX, f64::min), ms.iter().cloned().fold(0.0, f64::max));
        timings.insert(n.to_string(), json!({
            "median_ms": median(ms), "min_ms": lo, "max_ms": hi, "reps": REPS,
        }));
        // 16 diagonal elements, evenly spaced, and the sum of all of C in f64.
        let v: Vec<f32> = c.into_data().try_to_vec::<f32>().unwrap();
        let step = n / 16;
        let d: Vec<f64> = (0..n).step_by(step).map(|i| f64::from(v[i * n + i])).collect();
        diag.insert(n.to_string(), json!(d));
        sums.insert(n.to_string(), json!(v.iter().map(|&x| f64::from(x)).sum::<f64>()));
        bits.insert(n.to_string(), json!(fnv1a(&v)));
    }
    // region: threads
    let threads = json!({
        "os_threads": os_threads(),
        // CPU time of the whole process over wall time, across the timed reps of the largest size.
        "cpu_over_wall": cpu / wall,
    });
    // endregion: threads
    let out = json!({
        "sizes": SIZES,
        "c_diag16": diag,
        "c_sum": sums,
        "c_bits_fnv1a": bits,
        "timings": timings,
        "threads": threads,
        "cpu": {
            "avx2": std::arch::is_x86_feature_detected!("avx2"),
            "fma": std::arch::is_x86_feature_detected!("fma"),
            "avx512f": std::arch::is_x86_feature_detected!("avx512f"),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
