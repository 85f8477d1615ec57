//! Adding tensors pair by pair in a loop, as in PyTorch: `a + b` where the loop gives references.
//! Expected not to compile (E0369): burn has no `+` for `&Tensor`.
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let x = Tensor::<2>::ones([2, 4], &device);
    let xs: Vec<Tensor<2>> = (0..3).map(|i| x.clone() * (i + 1) as f32).collect();
    let ys: Vec<Tensor<2>> = (0..3).map(|i| x.clone() - i as f32).collect();
    // region: pairs
    let mut outs = Vec::new();
    for (a, b) in xs.iter().zip(ys.iter()) {
        outs.push(a + b); // PyTorch: outs.append(a + b)
    }
    // endregion: pairs
    println!("{}", outs.len());
}
