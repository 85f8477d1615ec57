//! An Int tensor with a float scalar in burn (Flex): the scalar is converted to an int first.
use burn::prelude::*;
use serde_json::{json, Value};

fn ints<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn floats<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f32> = t.to_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex();

    // region: naive
    let x = Tensor::<1, Int>::from_data([-3, -2, -1, 0, 1, 2, 3], &device);
    let plus_half = x.clone() + 0.5; // compiles: 0.5 is an ElementConversion
    let times_half = x.clone() * 0.5;
    let times_1_5 = x.clone() * 1.5;
    let minus_2_7 = x.clone() - 2.7;
    // endregion: naive

    // region: scalar
    // What an Int tensor's op does to a float scalar first (Scalar::new → elem::<i64>()).
    let scalars = [0.5, 1.5, 2.7, -2.7];
    let as_int: Vec<i64> = scalars.iter().map(|&s: &f64| s.elem::<i64>()).collect();
    // endregion: scalar

    // region: fixed
    let xf = x.clone().float(); // convert the tensor, not the scalar
    let f_plus_half = xf.clone() + 0.5;
    let f_times_half = xf.clone() * 0.5;
    let f_times_1_5 = xf.clone() * 1.5;
    let f_minus_2_7 = xf.clone() - 2.7;
    // endregion: fixed

    println!("{}", json!({
        "x": ints(&x),
        "naive": {"plus_half": ints(&plus_half), "times_half": ints(&times_half),
                  "times_1_5": ints(&times_1_5), "minus_2_7": ints(&minus_2_7)},
        "float_result": {"plus_half": floats(&f_plus_half), "times_half": floats(&f_times_half),
                         "times_1_5": floats(&f_times_1_5), "minus_2_7": floats(&f_minus_2_7)},
        "scalars": scalars, "scalars_as_int": as_int,
        "dtypes": {"x": format!("{:?}", x.dtype()), "naive": format!("{:?}", plus_half.dtype()),
                   "result": format!("{:?}", f_plus_half.dtype())},
    }));
}
