//! The torch → burn map, rows of modules, initialisers, schedulers, data utilities and
//! training-loop APIs. This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-8-modules/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them.
//! The topics overwrite the weights with PyTorch's and run the backward. Element k of a tensor with phase p is
//! 0.5·sin(k + 1 + p), in f64, rounded to f32 once; backward rows use L = sum(y · G), G of
//! phase 50. The same numbers as experiments/reference/ref_modules/.
use burn::data::dataset::{Dataset, InMemDataset};
use burn::lr_scheduler::LrScheduler;
use burn::module::{Param, RunningState};
use burn::nn::attention::MultiHeadAttention;
use burn::nn::transformer::{TransformerDecoderLayer, TransformerEncoderLayer};
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, GateController, LayerNorm, LayerNormConfig, Linear, Lstm};
use burn::prelude::*;
use burn::tensor::Gradients;
use serde_json::{json, Map, Value};

mod transformer_decoder;
mod conv_pool_other;
mod norm_dropout;
mod embedding;
mod containers;
mod train_eval;
mod init;
mod parameters;
mod lr_schedule;
mod datasets;
mod training_loop;
mod compile_export_dist;

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn leaf<const D: usize>(t: Tensor<D>, device: &Device) -> Tensor<D> {
    Tensor::from_data(t.into_data(), device)
}

fn param<const D: usize>(t: Tensor<D>, device: &Device) -> Param<Tensor<D>> {
    Param::from_tensor(leaf(t, device))
}

fn input<const D: usize>(t: Tensor<D>, device: &Device) -> Tensor<D> {
    leaf(t, device).require_grad()
}

fn backward<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * data(y.dims(), 50.0, &y.device())).sum().backward()
}

fn grad<const D: usize>(t: &Tensor<D>, g: &Gradients) -> Vec<f64> {
    flat(t.grad(g).expect("no gradient"))
}

/// A Linear from PyTorch's [out, in] weight phase `w` and bias phase `b`.
fn linear_at(out: usize, inp: usize, w: f64, b: Option<f64>, p: &Device, device: &Device) -> Linear {
    Linear {
        weight: param(data([out, inp], w, p).transpose(), device),
        bias: b.map(|b| param(data([out], b, p), device)),
    }
}

fn linear_from(w: Tensor<2>, b: Tensor<1>, device: &Device) -> Linear {
    Linear { weight: param(w.transpose(), device), bias: Some(param(b, device)) }
}

/// PyTorch's dw of a Linear, in its [out, in] layout.
fn linear_dw(l: &Linear, g: &Gradients) -> Vec<f64> {
    flat(l.weight.val().grad(g).unwrap().transpose())
}

fn linear_params(l: &Linear) -> (Vec<f64>, Vec<f64>) {
    (flat(l.weight.val().transpose()), flat(l.bias.as_ref().unwrap().val()))
}

fn regression(d: &Device) -> (Tensor<2>, Tensor<2>) {
    (data([4, 4], 0.0, d) * 2.0, data([4, 3], 60.0, d))
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    transformer_decoder::rows(&mut row);
    conv_pool_other::rows(&mut row);
    norm_dropout::rows(&mut row);
    embedding::rows(&mut row);
    containers::rows(&mut row);
    train_eval::rows(&mut row);
    init::rows(&mut row);
    parameters::rows(&mut row);
    lr_schedule::rows(&mut row);
    datasets::rows(&mut row);
    training_loop::rows(&mut row);
    compile_export_dist::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
