//! The torch → burn map, training rows: optimizers, their defaults, lr schedulers, init,
//! save/load and data loading. This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-4-training/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them.
//! main() prints `{"rows": {<id>: {...}}}`.
//! Optimizer rows: Linear(4, 3), weight element k (1-based, PyTorch's [out, in] order) 0.5·sin(k),
//! bias o 0.5·cos(o + 1); step t's gradients set directly: weight 0.1·cos(0.7·k + t), bias
//! 0.1·sin(o + 1 + 2t). The same numbers as experiments/reference/ref_training/.
use burn::data::dataloader::DataLoader;
use burn::data::dataset::InMemDataset;
use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Map, Value};

mod optimizers;
mod optimizer_defaults;
mod lr_schedule;
mod init;
mod save_load;
mod data_loading;

const IN: usize = 4;

const OUT: usize = 3;

fn f32s<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn make_linear(device: &Device) -> Linear {
    let w: Vec<f32> = (0..OUT * IN)
        .map(|k| (0.5 * ((k + 1) as f64).sin()) as f32)
        .collect();
    let b: Vec<f32> = (0..OUT)
        .map(|o| (0.5 * ((o + 1) as f64).cos()) as f32)
        .collect();
    Linear {
        // burn's Linear stores [in, out]: transpose PyTorch's [out, in].
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(b, [OUT]),
            device,
        ))),
    }
}

fn grad_values(t: usize) -> (Vec<f32>, Vec<f32>) {
    let gw = (0..OUT * IN)
        .map(|k| (0.1 * (0.7 * (k + 1) as f64 + t as f64).cos()) as f32)
        .collect();
    let gb = (0..OUT)
        .map(|o| (0.1 * ((o + 1 + 2 * t) as f64).sin()) as f32)
        .collect();
    (gw, gb)
}

/// Step t's gradients, keyed by the parameters' ids.
fn make_grads(lin: &Linear, t: usize) -> GradientsParams {
    let device = Device::flex();
    let (gw, gb) = grad_values(t);
    let mut grads = GradientsParams::new();
    grads.register(
        lin.weight.id,
        Tensor::<2>::from_data(TensorData::new(gw, [OUT, IN]), &device).transpose(),
    );
    grads.register(
        lin.bias.as_ref().unwrap().id,
        Tensor::<1>::from_data(TensorData::new(gb, [OUT]), &device),
    );
    grads
}

fn params(lin: &Linear) -> Value {
    let bias = lin.bias.as_ref().unwrap().val();
    json!({"weight": f32s(lin.weight.val().transpose()), "bias": f32s(bias)})
}

fn dataset() -> InMemDataset<i64> {
    InMemDataset::new((0..10).collect())
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    optimizers::rows(&mut row);
    optimizer_defaults::rows(&mut row);
    lr_schedule::rows(&mut row);
    init::rows(&mut row);
    save_load::rows(&mut row);
    data_loading::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
