//! A residual connection copied from PyTorch: `x` is used after it was moved.
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let layer: Linear = LinearConfig::new(4, 4).init(&device);
    let x = Tensor::<2>::ones([2, 4], &device);
    // region: naive
    let y = layer.forward(x) + x; // PyTorch: y = layer(x) + x
    // endregion: naive
    println!("{}", y);
}
