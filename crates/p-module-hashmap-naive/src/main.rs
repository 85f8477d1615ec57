//! nn.ModuleDict ported literally: the named heads in a HashMap<String, Linear>.
use std::collections::HashMap;

use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

const IN: usize = 4;
const HEADS: [(&str, usize); 2] = [("cls", 3), ("reg", 1)]; // name, output size

// region: model
#[derive(Module, Debug)]
struct Heads {
    heads: HashMap<String, Linear>,
}

impl Heads {
    fn forward(&self, x: Tensor<2>) -> HashMap<String, Tensor<2>> {
        self.heads
            .iter()
            .map(|(name, head)| (name.clone(), head.forward(x.clone())))
            .collect()
    }
}
// endregion: model

fn main() {
    let device = Device::flex().autodiff();
    let heads = HEADS
        .iter()
        .map(|&(name, out)| (name.to_string(), LinearConfig::new(IN, out).init(&device)))
        .collect();
    let model = Heads { heads };
    let x = Tensor::<2>::ones([1, IN], &device);
    println!("{} parameters, {} outputs", model.num_params(), model.forward(x).len());
}
