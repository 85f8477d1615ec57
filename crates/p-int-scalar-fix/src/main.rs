//! Pitfall fix: convert the tensor to float before the float scalar comes in.
use burn::prelude::*;
use serde_json::json;

fn floats(t: &Tensor<1>) -> Vec<f64> {
    t.to_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn main() {
    let device = Device::flex();
    let frame = Tensor::<1, Int>::arange(0..6, &device);

    // region: fix
    let t = frame.clone().float() * 0.5; // Int -> F32 first, then the scalar
    let mid = frame.clone().float() + 0.5;
    // endregion: fix

    // region: check
    assert!(t.dtype().is_float(), "t should be a float tensor, got {:?}", t.dtype());
    let t_is_float = t.dtype().is_float();
    // endregion: check

    println!("{}", json!({
        "frame": frame.to_data().try_to_vec_as::<i64>().unwrap(),
        "t": floats(&t), "mid": floats(&mid),
        "dtypes": {"frame": format!("{:?}", frame.dtype()), "t": format!("{:?}", t.dtype())},
        "check": {"t_is_float": t_is_float},
    }));
}
