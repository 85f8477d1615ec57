//! Casting between Int and Float in burn (Flex): truncation toward zero, rounding, precision.
use burn::prelude::*;
use burn::tensor::{FloatDType, IntDType};
use serde_json::{json, Value};

fn ints<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn main() {
    let device = Device::flex();

    // region: to-int
    let f = Tensor::<1>::from_data([-2.7, -2.5, -0.5, 0.5, 2.5, 2.7], &device);
    let to_int = f.clone().int(); // the device's default Int dtype
    let to_long = f.clone().cast(IntDType::I64);
    let floored = f.clone().floor().int();
    let rounded = f.clone().round().int();
    // endregion: to-int

    // region: to-float
    let i = Tensor::<1, Int>::from_data([16_777_217, -16_777_217, 3], &device);
    let to_float = i.clone().float(); // the device's default Float dtype
    let to_double = i.clone().cast(FloatDType::F64);
    // endregion: to-float

    // region: out-of-range
    let wild = Tensor::<1>::from_data([3.0e9, -3.0e9, f64::NAN, f64::INFINITY], &device);
    let wild_int = wild.clone().int();
    // endregion: out-of-range

    let f32s = |t: &Tensor<1>| -> Vec<f64> {
        t.to_data().try_to_vec_as::<f64>().unwrap()
    };
    println!("{}", json!({
        "f": f32s(&f),
        "to_int": ints(&to_int), "to_long": ints(&to_long),
        "floored": ints(&floored), "rounded": ints(&rounded),
        "i": ints(&i), "to_float": f32s(&to_float),
        "to_double": to_double.to_data().try_to_vec::<f64>().unwrap(),
        "wild": f32s(&wild).iter().map(|v| format!("{v:?}")).collect::<Vec<_>>(),
        "wild_int": ints(&wild_int),
        "dtypes": {"to_int": format!("{:?}", to_int.dtype()),
                   "to_long": format!("{:?}", to_long.dtype()),
                   "to_float": format!("{:?}", to_float.dtype()),
                   "to_double": format!("{:?}", to_double.dtype())},
    }));
}
