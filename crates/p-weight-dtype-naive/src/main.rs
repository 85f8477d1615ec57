//! Pitfall weight-dtype, the naive port: load the float64 .pt and the float16 .safetensors
//! (committed in data/, written by experiments/pitfalls/weight-dtype/make_weights.py) into
//! an f32 burn model the way the PyTorch script does, then run it on f32 inputs.
//! Both loads succeed; the first forward pass is caught and recorded, the second one ends
//! the program with its panic.
use std::panic::{self, AssertUnwindSafe};

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const PT_F64: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_f64.pt");
const ST_F16: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_f16.safetensors");

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
    // a1_f64.pt: PytorchStore transposes the Linear weights itself.
    let mut model_f64 = Mlp::init(&device);
    let loaded_f64 = model_f64.load_from(&mut PytorchStore::from_file(PT_F64)).expect("load a1_f64.pt");

    // a1_f16.safetensors: SafetensorsStore needs the PyTorch adapter for the transpose.
    let mut store = SafetensorsStore::from_file(ST_F16).with_from_adapter(PyTorchToBurnAdapter);
    let mut model_f16 = Mlp::init(&device);
    let loaded_f16 = model_f16.load_from(&mut store).expect("load a1_f16.safetensors");
    // endregion: load

    // The float64 forward pass: caught here (its message goes into the JSON), so that the
    // program goes on to the float16 one.
    panic::set_hook(Box::new(|_| {}));
    let f64_forward = panic::catch_unwind(AssertUnwindSafe(|| model_f64.forward(x.clone())));
    let _ = panic::take_hook();
    let f64_forward = match f64_forward {
        Ok(t) => format!("ok: {:?}", t.dtype()),
        Err(p) => format!(
            "panic: {}",
            p.downcast_ref::<String>().cloned().unwrap_or_else(|| "non-string panic".into())
        ),
    };

    let out = json!({
        "input_dtype": format!("{:?}", x.dtype()),
        "f64": {
            "load": format!("Ok: {} tensors applied, {} missing", loaded_f64.applied.len(), loaded_f64.missing.len()),
            "param_dtypes": dtypes(&model_f64),
            "forward": f64_forward,
        },
        "f16": {
            "load": format!("Ok: {} tensors applied, {} missing", loaded_f16.applied.len(), loaded_f16.missing.len()),
            "param_dtypes": dtypes(&model_f16),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());

    // region: forward
    let logits = model_f16.forward(x.clone()); // the f32 input meets the f16 weights
    // endregion: forward
    println!("{:?}", logits.into_data());
}
