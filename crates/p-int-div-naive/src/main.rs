//! Pitfall: `//` and `%` ported to burn as `/` and `%` on an Int tensor.
use burn::prelude::*;
use serde_json::json;

fn ints(t: &Tensor<1, Int>) -> Vec<i64> {
    t.to_data().try_to_vec_as::<i64>().unwrap()
}

fn main() {
    let device = Device::flex();

    // region: habit
    let rel = Tensor::<1, Int>::arange(-6..7, &device); // token positions relative to a centre
    let width = 4;
    let bucket = rel.clone() / width; // ported from rel // width
    let offset = rel.clone() % width; // ported from rel % width
    // endregion: habit

    // region: check
    let identity = (bucket.clone() * width + offset.clone())
        .equal(rel.clone())
        .all()
        .into_scalar::<bool>();
    // endregion: check

    println!("{}", json!({"rel": ints(&rel), "bucket": ints(&bucket), "offset": ints(&offset),
                          "identity": identity, "width": width}));
}
