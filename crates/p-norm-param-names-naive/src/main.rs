//! Pitfall norm-param-names, the naive port: the PyTorch model's checkpoint (committed in
//! data/, written by experiments/pitfalls/norm-param-names/make_weights.py) loaded into the
//! same model built from burn's Conv1d, BatchNorm and LayerNorm: first the .pt file with
//! PytorchStore (recorded), then the .safetensors file with a plain SafetensorsStore, whose
//! error `.expect` turns into the program's panic.
use burn::nn::conv::{Conv1d, Conv1dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, LayerNorm, LayerNormConfig};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore, SafetensorsStore};
use serde_json::json;

const C_IN: usize = 2;
const C: usize = 4;
const K: usize = 3;
const L: usize = 8;
const PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/net.pt");
const ST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/net.safetensors");

// region: model
#[derive(Module, Debug)]
struct Net {
    conv: Conv1d,
    bn: BatchNorm,
    ln: LayerNorm,
}

impl Net {
    fn init(device: &Device) -> Self {
        Self {
            conv: Conv1dConfig::new(C_IN, C, K).init(device),
            bn: BatchNormConfig::new(C).init(device),
            ln: LayerNormConfig::new(L - K + 1).init(device),
        }
    }
}
// endregion: model

fn main() {
    let device = Device::flex();
    let names: Vec<String> = Net::init(&device).collect(None, None, false).iter().map(|t| t.name.clone()).collect();

    // region: load_pt
    let mut model = Net::init(&device);
    let pt = model.load_from(&mut PytorchStore::from_file(PT)).expect("load net.pt");
    // endregion: load_pt

    let out = json!({
        "burn_names": names,
        "pt": {
            "applied": pt.applied.len(),
            "missing": pt.missing.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
            "unused": pt.unused,
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());

    // region: load_st
    let mut model = Net::init(&device);
    let mut store = SafetensorsStore::from_file(ST);
    model.load_from(&mut store).expect("load net.safetensors");
    // endregion: load_st
}
