//! Pitfall norm-param-names, the fix: the same checkpoint (committed in data/, written by
//! experiments/pitfalls/norm-param-names/make_weights.py) loaded into the burn model
//! three ways: .pt with PytorchStore, .safetensors with the PyTorch adapter, .safetensors
//! with explicit key remapping. Prints the same JSON structure as
//! experiments/pitfalls/norm-param-names/norm_params.py.
use burn::nn::conv::{Conv1d, Conv1dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, LayerNorm, LayerNormConfig};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};
use serde_json::json;

const C_IN: usize = 2;
const C: usize = 4;
const K: usize = 3;
const L: usize = 8;
const BATCH: usize = 2;
const PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/net.pt");
const ST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/net.safetensors");

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
    // Device::flex() has no autodiff, so BatchNorm takes its inference path (eval mode).
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        self.ln.forward(self.bn.forward(self.conv.forward(x)))
    }
}

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

// region: check
/// Load with `allow_partial(true)`, so the store returns what it did instead of an error,
/// and refuse any parameter of the model that the file did not fill.
fn check_complete(model: &mut Net, store: &mut SafetensorsStore) -> Result<(), String> {
    let result = model.load_from(store).map_err(|e| e.to_string())?;
    if result.missing.is_empty() && result.errors.is_empty() {
        Ok(())
    } else {
        let missing: Vec<&str> = result.missing.iter().map(|(p, _)| p.as_str()).collect();
        Err(format!("not in the file: {missing:?}; in the file, unused: {:?}", result.unused))
    }
}
// endregion: check

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * C_IN * L).map(|k| ((k + 1) as f64).sin() as f32).collect();
    let x = Tensor::<3>::from_data(TensorData::new(x, [BATCH, C_IN, L]), &device);

    let mut model_pt = Net::init(&device);
    model_pt.load_from(&mut PytorchStore::from_file(PT)).expect("load net.pt");

    // region: fix_adapter
    let mut store = SafetensorsStore::from_file(ST).with_from_adapter(PyTorchToBurnAdapter);
    let mut model_st = Net::init(&device);
    let loaded = model_st.load_from(&mut store).expect("load net.safetensors");
    // endregion: fix_adapter

    // region: fix_remap
    let mut store = SafetensorsStore::from_file(ST)
        .with_key_remapping(r"^(bn|ln)\.weight$", "$1.gamma")
        .with_key_remapping(r"^(bn|ln)\.bias$", "$1.beta");
    let mut model_remap = Net::init(&device);
    model_remap.load_from(&mut store).expect("load net.safetensors, remapped");
    // endregion: fix_remap

    // region: run_check
    let naive = check_complete(&mut Net::init(&device), &mut SafetensorsStore::from_file(ST).allow_partial(true));
    let fixed = check_complete(
        &mut Net::init(&device),
        &mut SafetensorsStore::from_file(ST).with_from_adapter(PyTorchToBurnAdapter).allow_partial(true),
    );
    // endregion: run_check

    let bn = &model_st.bn;
    let norm: Vec<f64> = [
        bn.gamma.val(), bn.beta.val(), bn.running_mean.value(), bn.running_var.value(),
        model_st.ln.gamma.val(), model_st.ln.beta.as_ref().unwrap().val(),
    ]
    .into_iter()
    .flat_map(nums)
    .collect();
    let mut applied = loaded.applied.clone();
    applied.sort();

    let out = json!({
        "applied": applied,
        "unused": loaded.unused,
        "norm": norm,
        "out_pt": nums(model_pt.forward(x.clone())),
        "out_st": nums(model_st.forward(x.clone())),
        "out_remap": nums(model_remap.forward(x.clone())),
        "check": {
            "naive": match naive { Ok(()) => "ok".to_string(), Err(e) => e },
            "fixed": fixed.is_ok(),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
