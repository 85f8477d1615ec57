//! Pitfall fix: floor division on an Int tensor, built from burn's floor-style `%`.
use burn::prelude::*;
use serde_json::json;

fn ints(t: &Tensor<1, Int>) -> Vec<i64> {
    t.to_data().try_to_vec_as::<i64>().unwrap()
}

// region: fix
/// Python's `a // b`: `a - a % b` is an exact multiple of `b`, so the division is exact.
fn floor_div(a: Tensor<1, Int>, b: i64) -> Tensor<1, Int> {
    (a.clone() - a % b) / b
}
// endregion: fix

fn main() {
    let device = Device::flex();
    let rel = Tensor::<1, Int>::arange(-6..7, &device);
    let width = 4;

    // region: use
    let bucket = floor_div(rel.clone(), width);
    let offset = rel.clone() % width;
    // endregion: use

    // region: check
    // a == (a // b) * b + a % b must hold for every element
    let identity = (bucket.clone() * width + offset.clone())
        .equal(rel.clone())
        .all()
        .into_scalar::<bool>();
    assert!(identity, "floor_div and % do not fit together");
    // endregion: check

    println!("{}", json!({"rel": ints(&rel), "bucket": ints(&bucket), "offset": ints(&offset),
                          "identity": identity, "width": width}));
}
