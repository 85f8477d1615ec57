//! The torch → burn map, linear-algebra rows (burn's `linalg` feature). This file is the harness:
//! the inputs and the JSON helpers, and main(), which runs each topic's rows (src/<topic>.rs, one
//! module a row of experiments/reference/ref-6-linalg/<topic>.yaml) and prints
//! {"rows": {<row id>: {...}}}. The inputs are the same numbers as the
//! PyTorch script's: data: X[k] = 0.5·sin(k + 1); rough: X[k] = 0.5·sin((k + 1)²) for the
//! matrices that must be invertible (consecutive sines make any matrix of three or more
//! columns singular: sin(k + 2) = 2·cos(1)·sin(k + 1) − sin(k)). Both in f64, rounded to f32
//! once. NaN and ±inf travel as "nan", "inf", "-inf" (serde_json would write null).
use burn::prelude::*;
use serde_json::{json, Map, Value};

mod vector_norms;
mod matrix_norms;
mod diag_trace;
mod det_decomp;
mod outer_mv;

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn rough<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * (((k + 1) * (k + 1)) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
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

fn out<const D: usize>(t: Tensor<D>) -> Value {
    json!({"v": fv(&t), "shape": t.dims().to_vec()})
}

fn scalar(x: f32) -> Value {
    json!({"v": num(f64::from(x))})
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    vector_norms::rows(&mut row);
    matrix_norms::rows(&mut row);
    diag_trace::rows(&mut row);
    det_decomp::rows(&mut row);
    outer_mv::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
