//! backward() on a loss that was never reduced: one loss per sample, shape [4].
//! burn 0.22.1 accepts it; compare the gradient with those of sum() and mean().
use burn::prelude::*;
use serde_json::{json, Value};

const B: usize = 4;
const IN: usize = 3;

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let x: Vec<f32> = (0..B * IN).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [B, IN]), &device);
    let t: Vec<f32> = (0..B).map(|r| (0.1 * r as f64) as f32).collect();
    let t = Tensor::<1>::from_data(TensorData::new(t, [B]), &device);
    let w: Vec<f32> = (0..IN).map(|k| (0.5 * ((k + 1) as f64).cos()) as f32).collect();
    let w = Tensor::<2>::from_data(TensorData::new(w, [IN, 1]), &device).require_grad();

    // shape [4]: one loss per sample
    let per_sample_loss = || (x.clone().matmul(w.clone()).reshape([B]) - t.clone()).square();

    // region: nonscalar
    let loss = per_sample_loss(); // shape [4], not reduced
    let grads = loss.backward(); // no error
    let g_nonscalar = w.grad(&grads).unwrap();
    // endregion: nonscalar

    // region: reference
    // Each backward consumes its graph: run the forward pass again each time.
    let g_sum = w.grad(&per_sample_loss().sum().backward()).unwrap();
    let g_mean = w.grad(&per_sample_loss().mean().backward()).unwrap();
    // endregion: reference

    let same_as_sum = g_nonscalar.clone().into_data() == g_sum.clone().into_data();
    let ratio = g_nonscalar.clone() / g_mean.clone();
    let out = json!({
        "batch": B,
        "loss_shape": loss.dims(),
        "grads": {"nonscalar": nums(g_nonscalar), "sum": nums(g_sum), "mean": nums(g_mean)},
        "nonscalar_equals_sum": same_as_sum,
        "nonscalar_over_mean": nums(ratio),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
