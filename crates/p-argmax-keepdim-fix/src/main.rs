//! Accuracy from argmax, fixed: drop the kept dimension before comparing with the labels.
use burn::prelude::*;

const B: usize = 8;
const C: usize = 3;

fn main() {
    let device = Device::flex();
    let v: Vec<f32> = (0..B * C).map(|k| ((k + 1) as f64).sin() as f32).collect();
    let logits = Tensor::<2>::from_data(TensorData::new(v, [B, C]), &device);
    let labels = Tensor::<1, Int>::from_data(TensorData::new(vec![1i32, 2, 1, 2, 1, 0, 0, 1], [B]), &device);

    // region: fix
    let pred = logits.argmax(1).squeeze_dim::<1>(1); // [B, 1] -> [B]
    let correct = pred.clone().equal(labels);         // [B] vs [B] -> [B]
    let accuracy: f32 = correct.clone().float().mean().into_scalar();
    // endregion: fix

    // region: check
    assert_eq!(pred.dims(), [B], "pred must be [B]");
    assert_eq!(correct.dims(), [B], "one comparison per sample, not [B, B]");
    // endregion: check

    let out = serde_json::json!({
        "accuracy": f64::from(accuracy),
        "pred": pred.clone().try_into_vec_as::<i64>().unwrap(),
        "pred_shape": pred.dims(),
        "correct_shape": correct.dims(),
        "checks_passed": true,
    });
    println!("{out}");
}
