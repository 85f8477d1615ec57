//! A1: a 4→8→3 MLP, cross-entropy, one SGD step (lr 0.1), on Device::flex().autodiff().
//! Prints the same JSON structure as experiments/guide/train_step.py.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, Relu};
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
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
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.relu.forward(self.fc1.forward(x)))
    }
}

// region: weights
/// Element k (1-based) of PyTorch's [out, in] weight is 0.5·f(k), computed in f64 and
/// rounded to f32 once; burn's Linear stores [in, out], so transpose.
fn weight(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Tensor<2> {
    let v: Vec<f32> = (0..out * inp)
        .map(|k| (0.5 * f((k + 1) as f64)) as f32)
        .collect();
    Tensor::<2>::from_data(TensorData::new(v, [out, inp]), device).transpose()
}

/// Bias element o (0-based) is 0.01·o.
fn bias(n: usize, device: &Device) -> Tensor<1> {
    let v: Vec<f32> = (0..n).map(|o| (0.01 * o as f64) as f32).collect();
    Tensor::<1>::from_data(TensorData::new(v, [n]), device)
}

fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    Linear {
        weight: Param::from_tensor(weight(out, inp, f, device)),
        bias: Some(Param::from_tensor(bias(out, device))),
    }
}
// endregion: weights

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

/// Weights go back to PyTorch's [out, in] order for the comparison.
fn params(m: &Mlp) -> Value {
    json!({
        "fc1.weight": nums(m.fc1.weight.val().transpose()),
        "fc1.bias": nums(m.fc1.bias.as_ref().unwrap().val()),
        "fc2.weight": nums(m.fc2.weight.val().transpose()),
        "fc2.bias": nums(m.fc2.bias.as_ref().unwrap().val()),
    })
}

fn main() {
    // region: step
    let device = Device::flex().autodiff();
    let model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };
    let x: Vec<f32> = (0..BATCH * IN)
        .map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32)
        .collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);
    let y: Vec<i64> = (0..BATCH as i64).map(|b| b % OUT as i64).collect();
    let y = Tensor::<1, Int>::from_data(TensorData::new(y, [BATCH]), &device);
    let loss_fn = CrossEntropyLossConfig::new().init(&device);

    let logits = model.forward(x.clone());
    let loss = loss_fn.forward(logits.clone(), y.clone());
    let grads = loss.backward();
    let g = |p: &Param<Tensor<2>>| nums(p.val().grad(&grads).unwrap().transpose());
    let gb = |p: &Option<Param<Tensor<1>>>| {
        nums(p.as_ref().unwrap().val().grad(&grads).unwrap())
    };
    let grad_json = json!({
        "fc1.weight": g(&model.fc1.weight),
        "fc1.bias": gb(&model.fc1.bias),
        "fc2.weight": g(&model.fc2.weight),
        "fc2.bias": gb(&model.fc2.bias),
    });

    let mut optim = SgdConfig::new().init();
    let grads = GradientsParams::from_grads(grads, &model);
    let model = optim.step(0.1, model, grads);
    let loss_after = loss_fn.forward(model.forward(x), y);
    // endregion: step

    let out = json!({
        "logits": nums(logits),
        "loss": nums(loss),
        "grads": grad_json,
        "params_after": params(&model),
        "loss_after": nums(loss_after),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
