//! Square f32 matmuls (256 to 2048) on Device::flex(), built with default features off:
//! timings, the threads of the process, and a checksum of C.
//! Prints the same JSON structure as experiments/pitfalls/matmul-threads/matmul_threads.py.
use std::time::Instant;

use burn::prelude::*;
use serde_json::{json, Map, Value};

const SIZES: [usize; 4] = [256, 512, 1024, 2048];
const REPS: usize = 11;

/// Element k (0-based, row-major) of A is sin(k), of B cos(k): f64, rounded to f32 once.
fn inputs(n: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let make = |f: fn(f64) -> f64| {
        let v: Vec<f32> = (0..n * n).map(|k| f(k as f64) as f32).collect();
        Tensor::<2>::from_data(TensorData::new(v, [n, n]), device)
    };
    (make(f64::sin), make(f64::cos))
}

// region: timing
/// Median, fastest and slowest of REPS timed matmuls (ms), after one warm-up.
fn time_matmul(a: &Tensor<2>, b: &Tensor<2>, device: &Device) -> (Tensor<2>, Value) {
    let mut c = a.clone().matmul(b.clone()); // warm-up
    let mut ms = Vec::with_capacity(REPS);
    let (cpu0, wall0) = (process_cpu_seconds(), Instant::now());
    for _ in 0..REPS {
        let t0 = Instant::now();
        c = a.clone().matmul(b.clone());
        device.sync().unwrap();
        ms.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    // CPU time of all threads over wall time: how many cores were busy on average.
    let busy = (process_cpu_seconds() - cpu0) / wall0.elapsed().as_secs_f64();
    ms.sort_by(|x, y| x.partial_cmp(y).unwrap());
    (c, json!({"median_ms": ms[REPS / 2], "min_ms": ms[0], "max_ms": ms[REPS - 1],
               "cpu_over_wall": busy}))
}
// endregion: timing

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

fn main() {
    let device = Device::flex();
    let (mut diag, mut sums, mut bits, mut timings) = (Map::new(), Map::new(), Map::new(), Map::new());
    let mut threads = None;
    for n in SIZES {
        let (a, b) = inputs(n, &device);
        let (c, t) = time_matmul(&a, &b, &device);
        timings.insert(n.to_string(), t);
        // Threads of the process after its first large matmul.
        threads.get_or_insert_with(os_threads);
        let v: Vec<f32> = c.into_data().try_to_vec::<f32>().unwrap();
        let d: Vec<f64> = (0..n).step_by(n / 16).map(|i| f64::from(v[i * n + i])).collect();
        diag.insert(n.to_string(), json!(d));
        sums.insert(n.to_string(), json!(v.iter().map(|&x| f64::from(x)).sum::<f64>()));
        bits.insert(n.to_string(), json!(fnv1a(&v)));
    }
    let out = json!({
        "sizes": SIZES,
        "reps": REPS,
        "c_diag16": diag,
        "c_sum": sums,
        "c_bits_fnv1a": bits,
        "threads": {"os_threads": threads, "cpu_count": std::thread::available_parallelism().unwrap().get()},
        "timings": {"default": timings},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
