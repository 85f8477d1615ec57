//! Pitfall fix: widen to I64 before reducing.
use burn::prelude::*;
use burn::tensor::DType;
use burn::tensor::IntDType;
use serde_json::json;

fn main() {
    let device = Device::flex();
    let sizes = Tensor::<1, Int>::from_data([1_500_000_000, 1_200_000_000, 900_000_000], &device);

    // region: fix
    let total = sizes.clone().cast(IntDType::I64).sum(); // I64 before the sum
    // endregion: fix

    // region: create
    // or create the tensor as I64 from the start
    let sizes64 = Tensor::<1, Int>::from_data(
        [1_500_000_000i64, 1_200_000_000, 900_000_000],
        (&device, DType::I64),
    );
    let total_b = sizes64.sum();
    // endregion: create

    // region: check
    let narrow = sizes.clone().sum().into_scalar::<i64>(); // the I32 sum
    let wide = total.clone().into_scalar::<i64>();
    let wrapped = narrow != wide; // true: the I32 sum wrapped
    assert_eq!(total.dtype(), DType::I64);
    // endregion: check

    println!("{}", json!({
        "sizes": sizes.to_data().try_to_vec_as::<i64>().unwrap(),
        "total": wide,
        "total_created_i64": total_b.into_scalar::<i64>(),
        "dtypes": {"total": format!("{:?}", total.dtype())},
        "check": {"narrow": narrow, "wide": wide, "wrapped": wrapped},
    }));
}
