//! The torch → burn map, autograd, activation and loss rows. This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-2-functional/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them.
//! The inputs are the PyTorch script's numbers (see its harness.py: computed in f64
//! and rounded to f32 once); main() prints `{"rows": {<id>: {...}}}`.
use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;
use serde_json::{json, Map, Value};

mod autograd;
mod grad_accum_clip;
mod activations;
mod activation_kinks;
mod losses;

fn grid<const D: usize>(f: impl Fn(f64) -> f64, shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| f((k + 1) as f64) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.sin(), shape, device)
}

fn coef<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.cos(), shape, device)
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// ================================================================ the harness

fn linear(device: &Device) -> Linear {
    // PyTorch's weight is [out, in]; burn stores [in, out].
    Linear {
        weight: Param::from_tensor(data([2, 3], device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::from_floats([0.0, 0.01], device))),
    }
}

const ACT_X: [f32; 12] = [-25.0, -5.0, -2.5, -1.5, -0.75, -0.25, 0.25, 0.75, 1.5, 2.5, 5.0, 25.0];

fn at(points: &[f32], f: impl Fn(Tensor<1>) -> Tensor<1>) -> (Value, Value) {
    let x = Tensor::<1>::from_floats(points, &Device::flex().autodiff()).require_grad();
    let y = f(x.clone());
    let g = y.clone().sum().backward();
    (nums(y), nums(x.grad(&g).unwrap()))
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    autograd::rows(&mut row);
    grad_accum_clip::rows(&mut row);
    activations::rows(&mut row);
    activation_kinks::rows(&mut row);
    losses::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
