//! gpt_attention.py ported: causal attention with burn's attention() (is_causal) and with an
//! explicit mask, on the same inputs; the cache case (fewer queries than keys); the time of
//! each way on gpt.py's training shape (forward only, the median of REPS runs).
use std::time::Instant;

use burn::prelude::*;
use burn::tensor::activation::softmax;
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use serde_json::json;

const B: usize = 2;
const H: usize = 4;
const T: usize = 16;
const D: usize = 16;
const Q_CACHE: usize = 4;
const SPEED_SHAPE: [usize; 4] = [16, 4, 32, 16];
const REPS: usize = 200;

/// Values in [-0.5, 0.5) from integer arithmetic, exact in f32 on both sides.
fn inputs(shape: [usize; 4], salt: i64, device: &Device) -> Tensor<4> {
    let n = shape.iter().product::<usize>() as i64;
    let v: Vec<f32> = (0..n).map(|i| (((i * 37 + salt) % 97) as f64 / 97.0 - 0.5) as f32).collect();
    Tensor::from_data(TensorData::new(v, shape), device)
}

// region: both_ways
fn fused(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
    let causal = AttentionModuleOptions { is_causal: true, ..Default::default() };
    attention(q, k, v, None, None, causal)
}

/// The mask aligned at the bottom right: query i (of L) sees keys up to i + S - L.
fn explicit(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
    let [b, h, l, d] = q.dims();
    let s = k.dims()[2];
    let att = q.matmul(k.swap_dims(2, 3)) * (1.0 / (d as f64).sqrt());
    let rows = Tensor::<1, Int>::arange(0..l as i64, &att.device()).reshape([l, 1]);
    let cols = Tensor::<1, Int>::arange(0..s as i64, &att.device()).reshape([1, s]);
    let future = cols.greater(rows.add_scalar((s - l) as i64)); // [l, s], true = masked
    let att = att.mask_fill(future.unsqueeze::<4>().expand([b, h, l, s]), f32::NEG_INFINITY);
    softmax(att, 3).matmul(v)
}
// endregion: both_ways

fn flat(t: Tensor<4>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn close(a: &Tensor<4>, b: &Tensor<4>) -> bool {
    a.clone().sub(b.clone()).abs().max().into_scalar::<f32>() <= 1e-6
}

fn median_seconds(f: fn(Tensor<4>, Tensor<4>, Tensor<4>) -> Tensor<4>, q: &Tensor<4>, k: &Tensor<4>, v: &Tensor<4>) -> f64 {
    let run = || f(q.clone(), k.clone(), v.clone()).into_data(); // into_data waits for the result
    for _ in 0..10 {
        run();
    }
    let mut times: Vec<f64> = (0..REPS).map(|_| {
        let t = Instant::now();
        run();
        t.elapsed().as_secs_f64()
    }).collect();
    times.sort_by(f64::total_cmp);
    (times[REPS / 2 - 1] + times[REPS / 2]) / 2.0
}

fn main() {
    let device = Device::flex();
    let (q, k, v) = (inputs([B, H, T, D], 11, &device), inputs([B, H, T, D], 23, &device), inputs([B, H, T, D], 5, &device));
    let full = fused(q.clone(), k.clone(), v.clone());
    // region: cache
    let qc = q.clone().slice(s![.., .., -(Q_CACHE as i64)..]); // the last Q_CACHE positions ask
    let cache_is_causal = fused(qc.clone(), k.clone(), v.clone());
    let cache_bottom_right = explicit(qc, k.clone(), v.clone());
    // endregion: cache
    let rows = full.clone().slice(s![.., .., -(Q_CACHE as i64)..]);
    let (sq, sk, sv) = (inputs(SPEED_SHAPE, 11, &device), inputs(SPEED_SHAPE, 23, &device), inputs(SPEED_SHAPE, 5, &device));
    let out = json!({
        "shape": [B, H, T, D],
        "q_cache": Q_CACHE,
        "full_sdpa": flat(full),
        "full_explicit": flat(explicit(q, k, v)),
        "is_causal_cache_equals_full_rows": close(&cache_is_causal, &rows),
        "bottom_right_equals_full_rows": close(&cache_bottom_right, &rows),
        "cache_bottom_right": flat(cache_bottom_right),
        "cache_is_causal": flat(cache_is_causal),
        "seconds": {"shape": SPEED_SHAPE,
                    "sdpa": median_seconds(fused, &sq, &sk, &sv),
                    "explicit": median_seconds(explicit, &sq, &sk, &sv)},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
