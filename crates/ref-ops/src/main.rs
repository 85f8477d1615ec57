//! The torch → burn map, the functional and tensor-op rows real training scripts call.
//! This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-7-ops/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them.
//! The inputs are the PyTorch script's numbers (see its harness.py: X = 0.5·sin(k + 1), C = 0.5·cos(k + 1),
//! W = 0.5·sin(0.7·(k + 1) + 1), in f64, rounded to f32 once), calls the module and prints the
//! same keys as the script. Gradient rows: "y" and the gradient of sum(y·C) with respect to
//! each input. NaN and ±inf travel as "nan", "inf", "-inf".
use burn::prelude::*;
use burn::tensor::{DType, Gradients};
use serde_json::{json, Map, Value};

mod attention;
mod masks;
mod conv_pool;
mod functional_layers;
mod creation_random;
mod matrix_distance;
mod elementwise_reduce;
mod scatter_unique;
mod padding;
mod losses;
mod vae;
mod shape;
mod distributions;

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

fn wave<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * (0.7 * k + 1.0).sin(), shape, device)
}

fn floats(v: &[f32], device: &Device) -> Tensor<1> {
    Tensor::<1>::from_floats(v, device)
}

fn ints<const D: usize>(v: Vec<i64>, shape: [usize; D], device: &Device) -> Tensor<D, Int> {
    Tensor::<D, Int>::from_data(TensorData::new(v, shape), device)
}

fn num(x: f64) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(x)
    }
}

fn fv<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    Value::Array(v.into_iter().map(num).collect())
}

fn iv<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn bv<const D: usize>(t: &Tensor<D, Bool>) -> Value {
    json!(t.to_data().try_to_vec::<bool>().unwrap())
}

fn out<const D: usize>(t: Tensor<D>) -> Value {
    json!({"y": fv(&t), "shape": t.dims().to_vec()})
}

fn outi<const D: usize>(t: Tensor<D, Int>) -> Value {
    json!({"y": iv(&t), "shape": t.dims().to_vec()})
}

fn outb<const D: usize>(t: Tensor<D, Bool>) -> Value {
    json!({"y": bv(&t), "shape": t.dims().to_vec()})
}

/// The gradients of sum(y·C), C = coef of y's shape.
fn gsum<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * coef(y.dims(), &y.device())).sum().backward()
}

fn grad<const D: usize>(x: &Tensor<D>, g: &Gradients) -> Value {
    fv(&x.grad(g).expect("no gradient"))
}

/// "y", "shape" and the gradients named in `grads`.
fn with_y<const D: usize>(y: &Tensor<D>, grads: Value) -> Value {
    let mut m = Map::new();
    m.insert("y".into(), fv(y));
    m.insert("shape".into(), json!(y.dims().to_vec()));
    if let Value::Object(g) = grads {
        m.extend(g);
    }
    Value::Object(m)
}

/// A loss row: the loss, and the gradients beside it.
fn loss_out(loss: Tensor<1>, grads: Value) -> Value {
    let mut m = Map::new();
    m.insert("loss".into(), fv(&loss));
    if let Value::Object(g) = grads {
        m.extend(g);
    }
    Value::Object(m)
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    attention::rows(&mut row);
    masks::rows(&mut row);
    conv_pool::rows(&mut row);
    functional_layers::rows(&mut row);
    creation_random::rows(&mut row);
    matrix_distance::rows(&mut row);
    elementwise_reduce::rows(&mut row);
    scatter_unique::rows(&mut row);
    padding::rows(&mut row);
    losses::rows(&mut row);
    vae::rows(&mut row);
    shape::rows(&mut row);
    distributions::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
