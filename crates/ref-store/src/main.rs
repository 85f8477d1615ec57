//! The torch → burn map, rows for PyTorch files, checkpoints, fine-tuning and mixed precision.
//! This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-5-store/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them. Reads data/zoo.pt
//! and data/ckpt.pt (saved by PyTorch); writes its files into the working directory (or, with
//! `export DIR`, the export of `Small` into DIR: that is how make_store_weights.py makes the copy
//! PyTorch loads). Inputs: element k of a tensor with phase p is 0.5·sin(k + 1 + p), rounded to
//! f32 once; gradients come from L = sum(y · G).
use std::path::Path;
use burn::module::{Param, RunningState};
use burn::optim::{AdamConfig, GradientsParams, SgdConfig};
use burn::prelude::*;
use burn::store::{bridge, ModuleSnapshot, ModuleStore, PytorchStore, SafetensorsStore};
use burn::tensor::{DType, Gradients};
use serde_json::{json, Map, Value};

mod load_pytorch;
mod export_pytorch;
mod mixed_precision;
mod checkpoint_finetune;
mod huggingface;

const ZOO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/zoo.pt");

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    let t = t.cast(DType::F32);
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// Small with deterministic weights in burn's own layout (Linear [in, out]).
fn small(device: &Device) -> export_pytorch::Small {
    let mut m = export_pytorch::Small::init(device);
    let p = |shape: [usize; 1], phase| Param::from_tensor(data(shape, phase, device));
    m.conv.weight = Param::from_tensor(data([3, 2, 3, 3], 10.0, device));
    m.conv.bias = Some(p([3], 20.0));
    m.bn.gamma = Param::from_tensor(data([3], 30.0, device).add_scalar(1.0));
    m.bn.beta = p([3], 40.0);
    m.bn.running_mean = RunningState::new(data([3], 50.0, device));
    m.bn.running_var = RunningState::new(data([3], 60.0, device).add_scalar(1.0));
    m.ln.gamma = Param::from_tensor(data([5], 70.0, device).add_scalar(1.0));
    m.ln.beta = Some(p([5], 80.0));
    m.lin.weight = Param::from_tensor(data([5, 2], 90.0, device));
    m.lin.bias = Some(p([2], 100.0));
    m
}

fn backward<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * data(y.dims(), 50.0, &y.device())).sum().backward()
}

fn grad<const D: usize>(t: Tensor<D>, g: &Gradients) -> Vec<f64> {
    flat(t.grad(g).expect("no gradient"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("export") {
        // make_store_weights.py: the copy PyTorch reads
        let dir = Path::new(&args[2]);
        export_pytorch::save_export(&small(&Device::flex()), dir.join("small_export.safetensors").to_str().unwrap());
        return;
    }
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    load_pytorch::rows(&mut row);
    export_pytorch::rows(&mut row);
    mixed_precision::rows(&mut row);
    checkpoint_finetune::rows(&mut row);
    huggingface::rows(&mut row);
    println!("{}", serde_json::to_string(&json!({"rows": rows})).unwrap());
}
