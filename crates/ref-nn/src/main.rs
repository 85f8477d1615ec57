//! The torch → burn map, nn module rows. This file is the harness (inputs, JSON helpers, main()); each topic is
//! src/<topic>.rs: one inline module a row of experiments/reference/ref-3-nn/<topic>.yaml, named
//! by the row id (its body is the row's burn cell on the page), and rows(), which runs them. Every module gets the
//! PyTorch script's weights: element k of a tensor with phase p is 0.5·sin(k + 1 + p), in f64,
//! rounded to f32 once, generated in PyTorch's layout and then moved into burn's here
//! (Linear [out, in] → [in, out]; LSTM/GRU/MHA stacked gates → one Linear each). Gradients are
//! read back in PyTorch's layout. L = sum(y · G), G of phase 50.
use burn::module::{Param, RunningState};
use burn::nn::attention::MultiHeadAttention;
use burn::nn::conv::Conv2d;
use burn::nn::transformer::TransformerEncoderLayer;
use burn::nn::{GateController, Gru, LayerNorm, LayerNormConfig, Linear, Lstm, PaddingConfig2d, Rnn};
use burn::prelude::*;
use burn::tensor::ops::PadMode;
use burn::tensor::Gradients;
use serde_json::{json, Map, Value};

mod linear_conv;
mod pooling;
mod norm;
mod dropout_embedding;
mod rnn;
mod attention;
mod interpolate;
mod defaults;

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// A fresh leaf on `device` holding t's values (t may be a view built on the plain device).
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

/// PyTorch's [out, in] weight (and bias), given on the plain device, into a burn Linear.
fn set_linear(lin: &mut Linear, w: Tensor<2>, b: Option<Tensor<1>>, device: &Device) {
    lin.weight = param(w.transpose(), device);
    lin.bias = b.map(|b| param(b, device));
}

fn linear_from(w: Tensor<2>, b: Option<Tensor<1>>, device: &Device) -> Linear {
    Linear { weight: param(w.transpose(), device), bias: b.map(|b| param(b, device)) }
}

/// Rows [g·h, (g+1)·h) of a stacked PyTorch weight [n·h, in].
fn block(w: &Tensor<2>, g: usize, h: usize) -> Tensor<2> {
    let cols = w.dims()[1];
    w.clone().slice([g * h..(g + 1) * h, 0..cols])
}

fn block1(b: &Tensor<1>, g: usize, h: usize) -> Tensor<1> {
    b.clone().slice([g * h..(g + 1) * h])
}

/// PyTorch's RNN weights (weight_ih, weight_hh, bias_ih, bias_hh: phases 10..40, or
/// base + 10..40 for a later layer / direction) split into one GateController per gate,
/// in PyTorch's gate order.
struct TorchRnn {
    w_ih: Tensor<2>,
    w_hh: Tensor<2>,
    b_ih: Tensor<1>,
    b_hh: Tensor<1>,
    h: usize,
}

impl TorchRnn {
    fn new(gates: usize, d_in: usize, h: usize) -> Self {
        Self::at(gates, d_in, h, 0.0)
    }
    fn at(gates: usize, d_in: usize, h: usize, base: f64) -> Self {
        let p = Device::flex();
        TorchRnn {
            w_ih: data([gates * h, d_in], base + 10.0, &p),
            w_hh: data([gates * h, h], base + 20.0, &p),
            b_ih: data([gates * h], base + 30.0, &p),
            b_hh: data([gates * h], base + 40.0, &p),
            h,
        }
    }
    fn set_rnn(&self, rnn: &mut Rnn, device: &Device) {
        rnn.gate = self.gate(0, device);
    }
    /// PyTorch's i, f, g, o into an existing Lstm (keeps its config, e.g. BiLstm's halves).
    fn set_lstm(&self, lstm: &mut Lstm, device: &Device) {
        lstm.input_gate = self.gate(0, device);
        lstm.forget_gate = Some(self.gate(1, device));
        lstm.cell_gate = self.gate(2, device);
        lstm.output_gate = self.gate(3, device);
    }
    /// PyTorch's r, z, n.
    fn set_gru(&self, gru: &mut Gru, device: &Device) {
        gru.reset_gate = self.gate(0, device);
        gru.update_gate = self.gate(1, device);
        gru.new_gate = self.gate(2, device);
    }
    fn gate(&self, g: usize, device: &Device) -> GateController {
        let h = self.h;
        GateController {
            input_transform: linear_from(block(&self.w_ih, g, h), Some(block1(&self.b_ih, g, h)), device),
            hidden_transform: linear_from(block(&self.w_hh, g, h), Some(block1(&self.b_hh, g, h)), device),
        }
    }
}

fn y_shape<const D: usize>(y: Tensor<D>) -> Value {
    json!({"y": flat(y.clone()), "shape": y.dims().to_vec()})
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    linear_conv::rows(&mut row);
    pooling::rows(&mut row);
    norm::rows(&mut row);
    dropout_embedding::rows(&mut row);
    rnn::rows(&mut row);
    attention::rows(&mut row);
    interpolate::rows(&mut row);
    defaults::rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
