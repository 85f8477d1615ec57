//! The same port, with configure's Result thrown away (`let _ =`) instead of unwrapped:
//! no panic, and every tensor stays F32.
use burn::prelude::*;
use burn::tensor::{DType, FloatDType};
use serde_json::json;

fn name(d: DType) -> &'static str {
    match d {
        DType::F64 => "float64",
        DType::F32 => "float32",
        _ => "other",
    }
}

fn main() {
    // region: main
    let mut device = Device::flex();
    let pre = Tensor::<1>::ones([4], &device); // created first: locks the defaults (F32)
    let _ = device.configure(FloatDType::F64); // the AlreadyInitialized error is dropped
    let a = Tensor::<1>::full([4], 0.1, &device);
    let b = a.clone().mul_scalar(3.0).sub_scalar(0.3);
    // endregion: main
    let out = json!({
        "pre_dtype": name(pre.dtype()),
        "dtype": name(a.dtype()),
        "settings_float": format!("{:?}", device.settings().float_dtype),
        "b": b.cast(FloatDType::F64).into_data().try_to_vec::<f64>().unwrap(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
