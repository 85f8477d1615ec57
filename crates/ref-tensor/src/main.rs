//! The torch → burn map, tensor rows. This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-1-tensor/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them.
//! main() prints {"rows": {<row id>: {...}}}: most rows {"v": the values, flattened,
//! "shape": the shape}, some add keys. The inputs are the same numbers as the PyTorch script's:
//! X[k] = 0.5·sin(k + 1), in f64, rounded to f32 once. NaN and ±inf travel as "nan", "inf",
//! "-inf" (serde_json would write null).
use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Map, Value};

mod creation;
mod randomness;
mod shape;
mod indexing;
mod elementwise;
mod comparison;
mod reduction;
mod matmul;
mod dtype_device;
mod host_data;
mod copy_inplace;

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn floats(v: &[f32], device: &Device) -> Tensor<1> {
    Tensor::<1>::from_floats(v, device)
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

fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F64 => "float64",
        DType::F32 | DType::Flex32 => "float32",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        DType::I64 => "int64",
        DType::I32 => "int32",
        DType::I16 => "int16",
        DType::I8 => "int8",
        DType::U64 => "uint64",
        DType::U32 => "uint32",
        DType::U16 => "uint16",
        DType::U8 => "uint8",
        DType::Bool(_) => "bool",
        DType::QFloat(_) => "quantized",
    }
}

// Values: f32 (or f64) widened exactly; ints as i64; bools as bools.
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
    json!({"v": fv(&t), "shape": t.dims().to_vec()})
}

fn out_dtype<const D: usize>(t: Tensor<D>) -> Value {
    json!({"v": fv(&t), "shape": t.dims().to_vec(), "dtype": dtype_name(t.dtype())})
}

fn outi<const D: usize>(t: Tensor<D, Int>) -> Value {
    json!({"v": iv(&t), "shape": t.dims().to_vec()})
}

fn outb<const D: usize>(t: Tensor<D, Bool>) -> Value {
    json!({"v": bv(&t), "shape": t.dims().to_vec()})
}

fn scalar(x: f32) -> Value {
    json!({"v": f64::from(x)})
}

const HALVES: [f32; 8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.7, 2.7];

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    creation::rows(&mut row);
    randomness::rows(&mut row);
    shape::rows(&mut row);
    indexing::rows(&mut row);
    elementwise::rows(&mut row);
    comparison::rows(&mut row);
    reduction::rows(&mut row);
    matmul::rows(&mut row);
    dtype_device::rows(&mut row);
    host_data::rows(&mut row);
    copy_inplace::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
