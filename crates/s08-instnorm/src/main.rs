//! An affine nn.InstanceNorm1d saved by PyTorch to safetensors (data/, written by
//! experiments/saveload/make_weights_more.py) loaded into burn's InstanceNorm through
//! PyTorchToBurnAdapter: the adapter does not rename InstanceNorm's weight/bias.
//! Prints the same JSON structure as experiments/saveload/instnorm.py.
use burn::nn::{InstanceNorm, InstanceNormConfig};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};
use serde_json::json;

const C: usize = 3;
const BATCH: usize = 2;
const LEN: usize = 5;

const ST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/instnorm.safetensors");

// region: model
#[derive(Module, Debug)]
struct Net {
    norm: InstanceNorm, // fields gamma, beta
}
// endregion: model

fn init(device: &Device) -> Net {
    Net { norm: InstanceNormConfig::new(C).with_affine(true).init(device) }
}

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * C * LEN)
        .map(|k| (((k * 7) % 11) as f64 * 0.3 - 1.0) as f32)
        .collect();
    let x = Tensor::<3>::from_data(TensorData::new(x, [BATCH, C, LEN]), &device);

    // region: naive
    let mut store = SafetensorsStore::from_file(ST).with_from_adapter(PyTorchToBurnAdapter);
    let naive = match init(&device).load_from(&mut store) {
        Ok(r) => format!("Ok: applied {:?}", r.applied),
        Err(e) => format!("Err: {e}"),
    };
    // endregion: naive

    // region: partial
    let mut store = SafetensorsStore::from_file(ST)
        .with_from_adapter(PyTorchToBurnAdapter)
        .allow_partial(true);
    let mut partial = init(&device);
    let r = partial.load_from(&mut store).expect("partial load");
    // endregion: partial
    let partial_y = nums(partial.norm.forward(x.clone()));

    // region: fix
    let mut store = SafetensorsStore::from_file(ST)
        .with_key_remapping(r"^norm\.weight$", "norm.gamma")
        .with_key_remapping(r"^norm\.bias$", "norm.beta");
    let mut model = init(&device);
    let fixed = model.load_from(&mut store).expect("load with remapping");
    let y = model.norm.forward(x.clone());
    // endregion: fix
    let mut fixed_applied = fixed.applied.clone();
    fixed_applied.sort();

    let out = json!({
        "naive": naive,
        "partial_applied": r.applied,
        "partial_missing": r.missing.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
        "partial_unused": r.unused,
        "partial_y": partial_y,
        "fixed_applied": fixed_applied,
        "gamma": nums(model.norm.gamma.as_ref().unwrap().val()),
        "y": nums(y),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
