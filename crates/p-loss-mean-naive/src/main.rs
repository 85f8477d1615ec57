//! The regression step of loss_mean.py ported without the mean: the per-sample loss
//! [B, 1] goes straight into backward(). burn accepts it.
use burn::prelude::*;
use serde_json::{json, Value};

const B: usize = 8;
const IN: usize = 3;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

fn flat<const R: usize>(t: Tensor<R>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::sin, 0.5), [B, IN]), &device);
    let t = Tensor::<2>::from_data(TensorData::new(seq(B, f64::cos, 0.3), [B, 1]), &device);
    let w = Tensor::<2>::from_data(TensorData::new(seq(IN, f64::cos, 0.5), [IN, 1]), &device)
        .require_grad();
    let b = Tensor::<1>::from_data(TensorData::new(vec![0.1f32], [1]), &device).require_grad();

    // region: loss
    let pred = x.clone().matmul(w.clone()) + b.clone().unsqueeze::<2>(); // [B, 1]
    let loss = (pred - t.clone()).powi_scalar(2); // mean() forgotten: shape [B, 1]
    let grads = loss.backward(); // no error, no warning
    let (grad_w, grad_b) = (w.grad(&grads).unwrap(), b.grad(&grads).unwrap());
    // endregion: loss

    // The same step with the mean, to measure the factor.
    let pred = x.matmul(w.clone()) + b.clone().unsqueeze::<2>();
    let grads_mean = (pred - t).powi_scalar(2).mean().backward();
    let ratio_w = grad_w.clone() / w.grad(&grads_mean).unwrap();
    let ratio_b = grad_b.clone() / b.grad(&grads_mean).unwrap();

    let out = json!({
        "batch": B,
        "loss_dims": loss.dims(),
        "grad_w": flat(grad_w),
        "grad_b": flat(grad_b),
        "ratio_to_mean": {"w": flat(ratio_w), "b": flat(ratio_b)},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
