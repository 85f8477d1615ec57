//! A module with two buffers, forward(&self) written as in PyTorch: `x - self.mean`.
//! Expected not to compile (E0507): the subtraction takes self.mean by value.
use burn::prelude::*;

const D: usize = 4;

// region: buffer
#[derive(Module, Debug)]
struct Normalize {
    mean: Tensor<2>, // [1, D]
    std: Tensor<2>,  // [1, D]
}

impl Normalize {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        (x - self.mean) / self.std // PyTorch: (x - self.mean) / self.std
    }
}
// endregion: buffer

fn main() {
    let device = Device::flex();
    let norm = Normalize {
        mean: Tensor::zeros([1, D], &device),
        std: Tensor::ones([1, D], &device),
    };
    let x = Tensor::<2>::ones([2, D], &device);
    println!("{}", norm.forward(x));
}
