//! Adding a bias vector to a batch, copied from PyTorch: Tensor<2> + Tensor<1>.
use burn::prelude::*;

const B: usize = 2;
const C: usize = 3;

fn main() {
    let device = Device::flex();
    let xv: Vec<f32> = (0..B * C).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let bv: Vec<f32> = (0..C).map(|j| (0.01 * (j + 1) as f64) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(xv, [B, C]), &device);
    let bias = Tensor::<1>::from_data(TensorData::new(bv, [C]), &device);

    // region: habit
    let y = x + bias;     // PyTorch: y = x + bias
    // endregion: habit
    println!("{:?}", y.dims());
}
