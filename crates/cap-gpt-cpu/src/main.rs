//! One matmul on burn's `cpu` backend, the CPU backend that fuses and autotunes. The book
//! builds it with `cargo build --offline` and the network closed: it never gets to run there.
use burn::prelude::*;

// region: cpu
fn main() {
    // CubeCL's CPU runtime: kernels are generated, fused and compiled through LLVM at run time.
    let device = Device::cpu();
    let x = Tensor::<2>::ones([64, 64], &device);
    let y = (x.clone().matmul(x) + 1.0).sum();
    let v = y.into_data().try_into_vec::<f32>().unwrap();
    println!("{{\"sum\": {}}}", v[0]);
}
// endregion: cpu
