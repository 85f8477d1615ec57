//! Integer overflow in burn (Flex): Int is I32 by default, and a sum or prod stays I32.
use burn::prelude::*;
use burn::tensor::IntDType;
use serde_json::json;

fn main() {
    let device = Device::flex();

    // region: input
    let big = Tensor::<1, Int>::from_data([2_000_000_000, 2_000_000_000, 1], &device); // I32
    // endregion: input

    // region: int32
    let add32 = big.clone() + big.clone();
    let sum32 = big.clone().sum(); // stays I32
    let prod32 = Tensor::<1, Int>::from_data([100_000, 100_000], &device).prod();
    let back = Tensor::<1, Int>::from_data([2_000_000_000, 2_000_000_000, -2_000_000_000], &device)
        .sum();
    // endregion: int32

    // region: int64
    let big64 = big.clone().cast(IntDType::I64); // widen before reducing
    let sum64 = big64.clone().sum();
    let prod64 = Tensor::<1, Int>::from_data([100_000, 100_000], &device)
        .cast(IntDType::I64)
        .prod();
    // endregion: int64

    let one = |t: Tensor<1, Int>| t.into_scalar::<i64>();
    println!("{}", json!({
        "input": big.to_data().try_to_vec_as::<i64>().unwrap(),
        "int64": {"sum": one(sum64.clone()), "prod": one(prod64)},
        "int32_add": add32.to_data().try_to_vec_as::<i64>().unwrap(),
        "int32_reduce": {"sum": one(sum32.clone()), "prod": one(prod32),
                         "back_in_range": one(back)},
        "dtypes": {"input": format!("{:?}", big.dtype()), "sum64": format!("{:?}", sum64.dtype()),
                   "add32": format!("{:?}", add32.dtype()),
                   "sum32": format!("{:?}", sum32.dtype())},
        "limits": {"i32_max": i32::MAX},
    }));
}
