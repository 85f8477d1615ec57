//! svd_grad.py ported as is: SVD of a tensor that requires grad on the autodiff device,
//! loss = sum of the singular values, backward. burn 0.22.1 panics inside linalg::svd.
use burn::linalg::svd;
use burn::prelude::*;
use serde_json::{json, Value};

const M: usize = 4;
const N: usize = 3;

fn flat<const R: usize>(t: Tensor<R>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    // A[k] = sin((k + 1)^2), row-major [M, N]: full rank, distinct singular values
    let data: Vec<f32> = (0..M * N).map(|k| ((k + 1) as f64).powi(2).sin() as f32).collect();

    // region: svd
    let a = Tensor::<2>::from_data(TensorData::new(data, [M, N]), &device).require_grad();
    let (_u, s, _vt) = svd::<2, 1>(a.clone(), 100); // panics here
    let loss = s.clone().sum(); // nuclear norm
    let grads = loss.backward();
    let grad_a = a.grad(&grads).unwrap();
    // endregion: svd

    let out = json!({"s": flat(s), "grad_a": flat(grad_a)});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
