//! Load A1's weights stored as float64 and as float16 (committed in data/, written by
//! experiments/saveload/make_weights.py) into an f32 burn model: the load, the forward
//! pass, and the fix (cast to F32 while loading).
//! Prints the same JSON structure as experiments/saveload/dtype.py.
use std::panic::{self, AssertUnwindSafe};

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{FloatCastAdapter, ModuleAdapter, ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};
use burn::tensor::DType;
use serde_json::{json, Value};

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

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

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// Runs `f`, turning a panic into its message.
fn catch(f: impl FnOnce() -> Vec<f64>) -> Result<Vec<f64>, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

fn one(file: &str, device: &Device, x: &Tensor<2>) -> Value {
    // region: naive
    let mut store = SafetensorsStore::from_file(file).with_from_adapter(PyTorchToBurnAdapter);
    let mut model = Mlp::init(device);
    let load = match model.load_from(&mut store) {
        Ok(r) => format!("Ok: {} tensors applied", r.applied.len()),
        Err(e) => format!("Err: {e}"),
    };
    let weight_dtype = format!("{:?}", model.fc1.weight.val().dtype());
    let forward = catch(|| nums(model.forward(x.clone())));
    // endregion: naive

    // region: fix
    let adapter = PyTorchToBurnAdapter.chain(FloatCastAdapter::to(DType::F32));
    let mut store = SafetensorsStore::from_file(file).with_from_adapter(adapter);
    let mut model = Mlp::init(device);
    model.load_from(&mut store).expect("load with cast");
    let fixed_dtype = format!("{:?}", model.fc1.weight.val().dtype());
    let logits = model.forward(x.clone());
    // endregion: fix

    json!({
        "load": load,
        "weight_dtype": weight_dtype,
        "forward": match forward {
            Ok(_) => "ok".to_string(),
            Err(msg) => format!("panic: {msg}"),
        },
        "fixed_dtype": fixed_dtype,
        "logits": nums(logits),
    })
}

fn main() {
    panic::set_hook(Box::new(|_| {})); // the message is reported in the JSON instead
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let out = json!({
        "input_dtype": format!("{:?}", x.dtype()),
        "f64": one(&format!("{dir}/a1_f64.safetensors"), &device, &x),
        "f16": one(&format!("{dir}/a1_f16.safetensors"), &device, &x),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
