//! The A1 MLP written the way burn <= 0.20 tutorials write it: generic over a backend `B`.
//! Expected not to compile against burn 0.22.1.
use burn::backend::NdArray;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

// region: model
#[derive(Module, Debug)]
struct Mlp<B: Backend> {
    fc1: Linear<B>,
    act: Relu,
    fc2: Linear<B>,
}

impl<B: Backend> Mlp<B> {
    fn new(device: &B::Device) -> Self {
        Self {
            fc1: LinearConfig::new(4, 8).init(device),
            act: Relu::new(),
            fc2: LinearConfig::new(8, 3).init(device),
        }
    }

    fn forward(&self, x: Tensor<B, 2>) -> Tensor<B, 2> {
        self.fc2.forward(self.act.forward(self.fc1.forward(x)))
    }
}
// endregion: model

// region: main
type MyBackend = NdArray;

fn main() {
    let device = Default::default();
    let model = Mlp::<MyBackend>::new(&device);
    let x = Tensor::<MyBackend, 2>::from_data([[0.1f32, 0.2, 0.3, 0.4]], &device);
    println!("{}", model.forward(x));
}
// endregion: main
