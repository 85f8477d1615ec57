//! Pitfall pt-legacy-bf16, the naive port: a legacy (non-zip) .pt and a bfloat16 .pt
//! (committed in data/, written by experiments/pitfalls/pt-legacy-bf16/make_weights.py)
//! loaded into an f32 burn model with PytorchStore, the way the PyTorch script loads them,
//! then run on f32 inputs. The legacy file is recorded; the bfloat16 forward pass ends the
//! program with its panic.
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const LEGACY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_legacy.pt");
const BF16: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_bf16.pt");

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

/// Every float parameter of the model with its dtype, as the model holds it.
fn dtypes(m: &Mlp) -> Vec<String> {
    m.collect(None, None, false).iter().map(|t| format!("{}: {:?}", t.name, t.dtype)).collect()
}

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // region: load
    let mut model_legacy = Mlp::init(&device);
    let legacy = model_legacy.load_from(&mut PytorchStore::from_file(LEGACY)).expect("load a1_legacy.pt");

    let mut model_bf16 = Mlp::init(&device);
    let bf16 = model_bf16.load_from(&mut PytorchStore::from_file(BF16)).expect("load a1_bf16.pt");
    // endregion: load

    let legacy_logits = model_legacy.forward(x.clone());
    let out = json!({
        "input_dtype": format!("{:?}", x.dtype()),
        "legacy": {
            "load": format!("Ok: {} tensors applied, {} missing", legacy.applied.len(), legacy.missing.len()),
            "param_dtypes": dtypes(&model_legacy),
            "forward": format!("ok: {:?} {:?}", legacy_logits.dtype(), legacy_logits.dims()),
        },
        "bf16": {
            "load": format!("Ok: {} tensors applied, {} missing", bf16.applied.len(), bf16.missing.len()),
            "param_dtypes": dtypes(&model_bf16),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());

    // region: forward
    let logits = model_bf16.forward(x.clone()); // the f32 input meets the bf16 weights
    // endregion: forward
    println!("{:?}", logits.into_data());
}
