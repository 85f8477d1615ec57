//! `y1 = model(x); y2 = model(x)` ported word for word: forward takes the input by value.
//! Expected not to compile (E0382).
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let model: Linear = LinearConfig::new(4, 3).init(&device);
    let x = Tensor::<2>::zeros([2, 4], &device);
    // region: naive
    let y1 = model.forward(x);
    let y2 = model.forward(x); // x was moved into the first call
    // endregion: naive
    println!("{}", y1.equal(y2).all().into_scalar::<bool>());
}
