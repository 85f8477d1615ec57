//! One million f32 values sin(k), computed in f64, summed four ways.
use burn::prelude::*;
use serde_json::json;

fn main() {
    // region: sum
    let n = 1_000_000;
    let v: Vec<f32> = (0..n).map(|k| (k as f64).sin() as f32).collect();
    let loop_fwd: f32 = v.iter().fold(0.0, |acc, x| acc + x);
    let loop_rev: f32 = v.iter().rev().fold(0.0, |acc, x| acc + x);
    let f64_exact: f64 = v.iter().map(|&x| x as f64).sum();
    let t = Tensor::<1>::from_data(TensorData::new(v, [n]), &Device::flex());
    let burn_sum: f32 = t.sum().into_scalar();
    // endregion: sum
    let out = json!({
        "sum": burn_sum as f64,
        "loop_fwd": loop_fwd as f64,
        "loop_rev": loop_rev as f64,
        "f64_exact": f64_exact,
        // Bit for bit, not within a tolerance: same order of additions or not.
        "sum_is_loop_fwd": burn_sum.to_bits() == loop_fwd.to_bits(),
    });
    println!("{out}");
}
