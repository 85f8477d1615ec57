//! Pitfall export-pytorch, the naive: a model trained in burn saved as safetensors for
//! PyTorch (as SafetensorsStore writes it by default). Prints the tensors the file holds and the model's output, in the
//! JSON structure of experiments/pitfalls/export-pytorch/load_export.py; `export DIR` writes
//! the file into DIR instead (make_exports.py: the copy the PyTorch side loads).
use std::path::Path;

use burn::module::{Param, RunningState};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, SafetensorsStore};
use serde_json::{json, Map, Value};

// region: model
#[derive(Module, Debug)]
struct Net {
    conv: Conv2d,
    bn: BatchNorm,
    ln: LayerNorm,
    lin: Linear,
}

impl Net {
    fn init(device: &Device) -> Self {
        Net {
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            bn: BatchNormConfig::new(3).init(device),
            ln: LayerNormConfig::new(5).init(device),
            lin: LinearConfig::new(5, 2).init(device),
        }
    }
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.lin.forward(self.ln.forward(self.bn.forward(self.conv.forward(x))))
    }
}
// endregion: model

/// A model with only square Linear layers: its [in, out] weight has PyTorch's shape too.
#[derive(Module, Debug)]
struct Square {
    lin: Linear,
}

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

/// Stands in for a trained model: fixed weights in burn's own layout (Linear [in, out]).
fn trained(device: &Device) -> Net {
    let mut m = Net::init(device);
    m.conv.weight = Param::from_tensor(data([3, 2, 3, 3], 10.0, device));
    m.conv.bias = Some(Param::from_tensor(data([3], 20.0, device)));
    m.bn.gamma = Param::from_tensor(data([3], 30.0, device).add_scalar(1.0));
    m.bn.beta = Param::from_tensor(data([3], 40.0, device));
    m.bn.running_mean = RunningState::new(data([3], 50.0, device));
    m.bn.running_var = RunningState::new(data([3], 60.0, device).add_scalar(1.0));
    m.ln.gamma = Param::from_tensor(data([5], 70.0, device).add_scalar(1.0));
    m.ln.beta = Some(Param::from_tensor(data([5], 80.0, device)));
    m.lin.weight = Param::from_tensor(data([5, 2], 90.0, device));
    m.lin.bias = Some(Param::from_tensor(data([2], 100.0, device)));
    m
}

fn square(device: &Device) -> Square {
    let mut lin = LinearConfig::new(4, 4).init(device);
    lin.weight = Param::from_tensor(data([4, 4], 110.0, device));
    lin.bias = Some(Param::from_tensor(data([4], 120.0, device)));
    Square { lin }
}

fn export<M: Module>(model: &M, path: &Path) {
    // region: export
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).expect("save model.safetensors");
    // endregion: export
}

/// The header as sorted "name dtype shape" lines, like wanted() in load_export.py.
fn tensors(raw: &[u8]) -> Vec<String> {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    let head: Map<String, Value> = serde_json::from_slice(&raw[8..8 + n]).unwrap();
    head.iter()
        .filter(|(k, _)| k.as_str() != "__metadata__")
        .map(|(k, v)| {
            let shape: Vec<String> = v["shape"].as_array().unwrap().iter().map(|d| d.to_string()).collect();
            format!("{k} {} {}", v["dtype"].as_str().unwrap(), shape.join("x"))
        })
        .collect()
}

/// FNV-1a of the tensor bytes after the header (the header's metadata has no fixed order).
fn payload_fnv(raw: &[u8]) -> String {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in &raw[8 + n..] {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn main() {
    let device = Device::flex(); // no autodiff: BatchNorm uses its running statistics
    let model = trained(&device);
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("export") {
        export(&model, &Path::new(&args[2]).join("model.safetensors"));
        export(&square(&device), &Path::new(&args[2]).join("square.safetensors"));
        return;
    }
    export(&model, Path::new("model.safetensors"));
    let raw = std::fs::read("model.safetensors").unwrap();
    let y = model.forward(data([2, 2, 3, 5], 0.0, &device) * 2.0);
    let y = nums(y);
    export(&square(&device), Path::new("square.safetensors"));
    let sq = std::fs::read("square.safetensors").unwrap();
    let sq_y = nums(square(&device).lin.forward(data([2, 4], 0.0, &device) * 2.0));
    let out = json!({"naive": {"payload_fnv": payload_fnv(&raw), "tensors": tensors(&raw), "y": y,
        "square_fnv": payload_fnv(&sq), "square_y": sq_y}});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
