//! Pitfall: an Int tensor times a float scalar, ported naively.
use burn::prelude::*;
use serde_json::json;

fn ints(t: &Tensor<1, Int>) -> Vec<i64> {
    t.to_data().try_to_vec_as::<i64>().unwrap()
}

fn main() {
    let device = Device::flex();

    // region: habit
    let frame = Tensor::<1, Int>::arange(0..6, &device); // frame indices
    let t = frame.clone() * 0.5; // timestamps in seconds at 2 frames per second
    let mid = frame.clone() + 0.5; // the middle of each frame
    // endregion: habit

    // what Scalar::new does to 0.5 for an Int tensor: elem::<i64>()
    let half_as_int: i64 = 0.5f64.elem::<i64>();

    println!("{}", json!({"half_as_int": half_as_int, "frame": ints(&frame), "t": ints(&t), "mid": ints(&mid),
                          "dtypes": {"frame": format!("{:?}", frame.dtype()),
                                     "t": format!("{:?}", t.dtype())}}));
}
