//! Integer division and remainder in burn (Flex), on negative and positive operands.
use burn::prelude::*;
use serde_json::{json, Value};

fn ints<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn main() {
    let device = Device::flex();

    // region: cases
    let a = Tensor::<1, Int>::from_data([7, -7, 7, -7, 6, -6, 1, -1], &device);
    let b = Tensor::<1, Int>::from_data([2, 2, -2, -2, 3, 3, 4, 4], &device);
    // endregion: cases

    // region: ops
    let slash = a.clone() / b.clone(); // toward zero, like Rust's i32 `/`
    let rem = a.clone() % b.clone(); // sign of the divisor, like Python's %
    let fmod = a.clone() - slash.clone() * b.clone(); // sign of the dividend
    let true_div = a.clone().float() / b.clone().float();
    // endregion: ops

    // region: floor
    // a - a % b is an exact multiple of b: dividing it is exact, so this is floor(a / b).
    let floor_div = (a.clone() - rem.clone()) / b.clone();
    // endregion: floor

    // region: scalar
    let s_slash = a.clone() / 2;
    let s_rem = a.clone() % 2;
    let s_rem_neg = a.clone() % -2;
    let s_floor = (a.clone() - s_rem.clone()) / 2;
    // endregion: scalar

    let slash_v = ints(&slash);
    let floor_v = ints(&floor_div);
    println!("{}", json!({
        "a": ints(&a), "b": ints(&b),
        "trunc_div": slash_v, "floor_div": floor_v, "rem": ints(&rem), "fmod": ints(&fmod),
        "true_div": true_div.to_data().try_to_vec::<f32>().unwrap()
            .into_iter().map(f64::from).collect::<Vec<_>>(),
        "scalar": {"trunc_div": ints(&s_slash), "floor_div": ints(&s_floor),
                   "rem": ints(&s_rem), "rem_neg": ints(&s_rem_neg)},
        "slash_equals_floor": slash_v == floor_v,
        "dtypes": {"slash": format!("{:?}", slash.dtype()),
                   "true_div": format!("{:?}", true_div.dtype())},
    }));
}
