//! Pitfall: summing an Int tensor whose total does not fit in I32.
use burn::prelude::*;
use serde_json::json;

fn main() {
    let device = Device::flex();

    // region: habit
    // bytes read from each of three shards; each count fits in 32 bits
    let sizes = Tensor::<1, Int>::from_data([1_500_000_000, 1_200_000_000, 900_000_000], &device);
    let total = sizes.clone().sum();
    // endregion: habit

    println!("{}", json!({
        "sizes": sizes.to_data().try_to_vec_as::<i64>().unwrap(),
        "total": total.clone().into_scalar::<i64>(),
        "dtypes": {"sizes": format!("{:?}", sizes.dtype()), "total": format!("{:?}", total.dtype())},
        "i32_max": i32::MAX,
    }));
}
