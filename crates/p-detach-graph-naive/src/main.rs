//! An online weight trained by SGD and a target weight kept as its EMA (mean-teacher style).
//! Naive port: detach() everywhere PyTorch would have no grad (target copy, EMA, teacher output).
//! It runs, but the target stays tracked: each step is timed.
use burn::prelude::*;
use serde_json::json;
use std::time::Instant;

const STEPS: usize = 1000;
const B: usize = 16;
const IN: usize = 32;
const OUT: usize = 32;
const LR: f64 = 0.05;
const DECAY: f64 = 0.99;
// How much slower the last 10 steps must be than the first 10 for last10_slower_than_first10.
const SLOWER: f64 = 3.0;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::sin, 1.0), [B, IN]), &device);
    let y = Tensor::<2>::from_data(TensorData::new(seq(B * OUT, f64::cos, 0.5), [B, OUT]), &device);
    let mut w = Tensor::<2>::from_data(TensorData::new(seq(IN * OUT, f64::cos, 0.1), [IN, OUT]), &device)
        .require_grad();
    // region: ema
    let mut target = w.clone().detach(); // target = online.detach().clone(), as in PyTorch
    // endregion: ema
    let init_require_grad = target.is_require_grad(); // detach() kept w's require_grad
    // region: loop
    let mut step_ms = Vec::with_capacity(STEPS);
    let mut losses = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        let t0 = Instant::now();
        let pred = x.clone().matmul(w.clone());
        let teacher = x.clone().matmul(target.clone()).detach(); // teacher output detached too
        let loss = (pred.clone() - y.clone()).powi_scalar(2).mean()
            + (pred - teacher).powi_scalar(2).mean();
        losses.push(loss.clone().into_scalar::<f32>() as f64);
        let grads = loss.backward();
        let g = w.grad(&grads).unwrap();
        w = (w.inner() - g.mul_scalar(LR)).autodiff().require_grad();
        // EMA: online side detached, as in PyTorch
        target = target.mul_scalar(DECAY) + w.clone().detach().mul_scalar(1.0 - DECAY);
        step_ms.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    // endregion: loop
    let first = median(step_ms[..10].to_vec());
    let last = median(step_ms[STEPS - 10..].to_vec());
    let flat = |t: Tensor<2>| -> Vec<f64> {
        t.into_data().try_to_vec::<f32>().unwrap().into_iter().take(4).map(f64::from).collect()
    };
    let out = json!({
        "config": {"steps": STEPS, "batch": B, "in": IN, "out": OUT, "lr": LR, "decay": DECAY},
        "target_is_tracked": target.is_tracked(),
        "target_require_grad_after_detach": init_require_grad,
        "final_loss": losses[STEPS - 1],
        "w_head": flat(w),
        "target_head": flat(target),
        "slower_factor": SLOWER,
        "last10_slower_than_first10": last > SLOWER * first,
        "step_ms": step_ms,
        "first10_median_ms": first,
        "last10_median_ms": last,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
