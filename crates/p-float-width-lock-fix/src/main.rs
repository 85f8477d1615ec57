//! float_width_lock.py ported with the device configured before its first tensor; the tensor
//! PyTorch created as float32 gets an explicit F32 dtype.
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
    device.configure(FloatDType::F64).unwrap(); // before any tensor exists on the device
    let pre = Tensor::<1>::ones([4], (&device, DType::F32)); // explicit: stays F32
    let a = Tensor::<1>::full([4], 0.1, &device); // default: now F64
    let b = a.clone().mul_scalar(3.0).sub_scalar(0.3);
    // endregion: main
    // region: check
    assert_eq!(device.settings().float_dtype, FloatDType::F64);
    assert_eq!(a.dtype(), DType::F64);
    // endregion: check
    let again = device.configure(FloatDType::F32); // a second configure is refused
    let out = json!({
        "pre_dtype": name(pre.dtype()),
        "dtype": name(a.dtype()),
        "settings_float": format!("{:?}", device.settings().float_dtype),
        "fresh_handle_float": format!("{:?}", Device::flex().settings().float_dtype),
        "second_configure": match &again { Ok(()) => "ok".to_string(), Err(e) => format!("{e:?}") },
        "second_configure_message": match &again { Ok(()) => String::new(), Err(e) => e.to_string() },
        "b": b.into_data().try_to_vec::<f64>().unwrap(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
