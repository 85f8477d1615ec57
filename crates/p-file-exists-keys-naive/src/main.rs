//! Pitfall file-exists, the naive port of loading an nn.Sequential's weights: the PyTorch
//! file (committed in data/, written by experiments/pitfalls/file-exists/make_weights.py)
//! has keys `layers.0.weight` ...; the burn model has the fields fc1 / fc2. Loaded as is,
//! the way load_state_dict is called; the `.expect` turns the error into the panic.
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, ModuleStore, PytorchStore};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;

const NET_PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_net.pt");

// region: model
#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

impl Mlp {
    fn init(device: &Device) -> Self {
        Self {
            fc1: LinearConfig::new(IN, HID).init(device),
            relu: Relu::new(),
            fc2: LinearConfig::new(HID, OUT).init(device),
        }
    }
}
// endregion: model

fn main() {
    let device = Device::flex();
    let mut model = Mlp::init(&device);

    // What each side calls its tensors, printed before the load.
    let file_keys = PytorchStore::from_file(NET_PT).keys().unwrap();
    let model_keys: Vec<String> = model.collect(None, None, false).into_iter().map(|t| t.name).collect();
    println!("{}", serde_json::to_string_pretty(&json!({
        "file_keys": file_keys,
        "model_keys": model_keys,
    })).unwrap());

    // region: load
    let mut store = PytorchStore::from_file(NET_PT);
    model.load_from(&mut store).expect("load a1_net.pt");
    // endregion: load
}
