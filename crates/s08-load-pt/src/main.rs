//! Load a PyTorch nn.Sequential's weights (committed in data/, written by
//! experiments/saveload/make_weights.py) into a burn model with named fields:
//! once from the .pt state_dict, once from the .safetensors file.
//! Prints the same JSON structure as experiments/saveload/load_pt.py.
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_seq.pt");
const ST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_seq.safetensors");

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
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.relu.forward(self.fc1.forward(x)))
    }
}
// endregion: model

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // region: keys
    let mut raw = PytorchStore::from_file(PT);
    let keys = raw.keys().unwrap();

    let mut model = Mlp::init(&device);
    let no_remap = match model.load_from(&mut PytorchStore::from_file(PT)) {
        Ok(r) => format!("Ok: applied {:?}", r.applied),
        Err(e) => format!("Err: {e}"),
    };
    // endregion: keys

    // region: pt
    let mut store = PytorchStore::from_file(PT)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.");
    let remapped_keys = store.keys().unwrap();
    let mut model = Mlp::init(&device);
    let result = model.load_from(&mut store).expect("load .pt");
    let logits_pt = model.forward(x.clone());
    // endregion: pt
    let mut applied_pt = result.applied.clone();
    applied_pt.sort();
    let fc1_weight_shape = model.fc1.weight.val().dims().to_vec();

    // region: safetensors
    let mut store = SafetensorsStore::from_file(ST)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.")
        .with_from_adapter(PyTorchToBurnAdapter); // [out, in] -> [in, out]
    let mut model = Mlp::init(&device);
    model.load_from(&mut store).expect("load .safetensors");
    let logits_st = model.forward(x.clone());
    // endregion: safetensors

    // region: no_adapter
    let mut store = SafetensorsStore::from_file(ST)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.");
    let no_adapter = match Mlp::init(&device).load_from(&mut store) {
        Ok(r) => format!("Ok: applied {:?}", r.applied),
        Err(e) => format!("Err: {e}"),
    };
    // endregion: no_adapter

    let out = json!({
        "keys": keys,
        "remapped_keys": remapped_keys,
        "applied_pt": applied_pt,
        "fc1_weight_shape": fc1_weight_shape,
        "logits_pt": nums(logits_pt),
        "logits_st": nums(logits_st),
        "no_remap": no_remap,
        "no_adapter": no_adapter,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
