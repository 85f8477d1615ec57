//! Adding a bias vector to a batch, fixed: give the bias the batch's rank first.
use burn::prelude::*;

const B: usize = 2;
const C: usize = 3;

fn main() {
    let device = Device::flex();
    let xv: Vec<f32> = (0..B * C).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let bv: Vec<f32> = (0..C).map(|j| (0.01 * (j + 1) as f64) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(xv, [B, C]), &device);
    let bias = Tensor::<1>::from_data(TensorData::new(bv, [C]), &device);

    // region: fix
    let y = x + bias.unsqueeze::<2>();   // [C] -> [1, C], then broadcast to [B, C]
    // endregion: fix

    // region: check
    assert_eq!(y.dims(), [B, C]);
    // endregion: check

    let out = serde_json::json!({
        "y": y.clone().try_into_vec_as::<f32>().unwrap().into_iter().map(f64::from).collect::<Vec<_>>(),
        "shape": y.dims(),
    });
    println!("{out}");
}
