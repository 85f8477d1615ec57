//! backward() and reading gradients of f = sum(tanh(x @ w + b) * c) on Device::flex().autodiff().
//! x, w, b are leaves that require gradients; c is a constant.
//! Prints the same JSON structure as experiments/loss/grad.py.
use burn::prelude::*;
use serde_json::{json, Value};

/// Element k (1-based, row-major) is f(k), computed in f64 and rounded to f32 once.
fn grid(rows: usize, cols: usize, f: fn(f64) -> f64, device: &Device) -> Tensor<2> {
    let v: Vec<f32> = (0..rows * cols).map(|k| f((k + 1) as f64) as f32).collect();
    Tensor::<2>::from_data(TensorData::new(v, [rows, cols]), device)
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    // region: leaves
    let device = Device::flex().autodiff();
    let x = grid(2, 3, |k| 0.5 * k.sin(), &device).require_grad();
    let w = grid(3, 4, |k| 0.5 * k.cos(), &device).require_grad();
    let b: Vec<f32> = (0..4).map(|o| (0.1 * o as f64 - 0.1) as f32).collect();
    let b = Tensor::<1>::from_data(TensorData::new(b, [4]), &device).require_grad();
    let c = grid(2, 4, |k| 0.1 * k - 0.4, &device); // a constant: no gradient
    // endregion: leaves

    // region: backward
    let f = ((x.clone().matmul(w.clone()) + b.clone().unsqueeze::<2>()).tanh() * c.clone()).sum();
    let grads = f.backward();
    let gx: Tensor<2> = x.grad(&grads).unwrap();
    let gw: Tensor<2> = w.grad(&grads).unwrap();
    let gb: Tensor<1> = b.grad(&grads).unwrap();
    let c_has_grad = c.grad(&grads).is_some();
    // endregion: backward

    let out = json!({
        "f": nums(f),
        "grads": {"x": nums(gx.clone()), "w": nums(gw.clone()), "b": nums(gb.clone())},
        "c_has_grad": c_has_grad,
        "shape": {"x": gx.dims(), "w": gw.dims(), "b": gb.dims()},
        "grad_is_autodiff": gx.is_autodiff(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
