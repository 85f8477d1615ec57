//! Pitfall file-exists, the naive port of the checkpoint loop: save to the same path after
//! every step, with BurnpackStore, the way torch.save is used. The second save fails, and
//! the `.expect` turns its error into the panic that ends the program.
use burn::module::Param;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{BurnpackStore, ModuleSnapshot};

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

/// Adds 0.01 to every parameter: stands in for one optimizer step.
fn step(l: Linear) -> Linear {
    Linear {
        weight: Param::from_tensor(l.weight.val() + 0.01),
        bias: l.bias.map(|b| Param::from_tensor(b.val() + 0.01)),
    }
}

fn main() {
    let device = Device::flex();
    let mut model = Mlp {
        fc1: LinearConfig::new(IN, HID).init(&device),
        relu: Relu::new(),
        fc2: LinearConfig::new(HID, OUT).init(&device),
    };

    // region: checkpoint
    for s in 1..=3 {
        model = Mlp { fc1: step(model.fc1), relu: model.relu, fc2: step(model.fc2) };
        let mut store = BurnpackStore::from_file("checkpoint"); // the same path every step
        model.save_into(&mut store).expect("save checkpoint");
        println!("step {s}: saved");
    }
    // endregion: checkpoint
}
