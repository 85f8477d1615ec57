//! dropout_eval.py ported with model.valid(): a snapshot on the inner (plain) device with
//! the training flags off, so Dropout passes its input through, as after model.eval().
use burn::module::Param;
use burn::nn::{Dropout, DropoutConfig, Linear, Relu};
use burn::prelude::*;
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const B: usize = 4;

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    dropout: Dropout,
    fc2: Linear,
}

impl Mlp {
    fn hidden(&self, x: Tensor<2>) -> Tensor<2> {
        self.dropout.forward(self.relu.forward(self.fc1.forward(x)))
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.hidden(x))
    }
}

/// Element k (1-based) of PyTorch's [out, in] weight is 0.5·f(k); burn stores [in, out].
fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let w: Vec<f32> = (0..out * inp).map(|k| (0.5 * f((k + 1) as f64)) as f32).collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [out, inp]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

fn model(device: &Device) -> Mlp {
    Mlp {
        fc1: linear(HID, IN, f64::sin, device),
        relu: Relu::new(),
        dropout: DropoutConfig::new(0.5).init(),
        fc2: linear(OUT, HID, f64::cos, device),
    }
}

fn input(device: &Device) -> Tensor<2> {
    let x: Vec<f32> = (0..B * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    Tensor::<2>::from_data(TensorData::new(x, [B, IN]), device)
}

fn nums(t: Tensor<2>) -> Vec<f64> {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    v.into_iter().map(f64::from).collect()
}

/// Hidden units that ReLU left non-zero and Dropout then zeroed.
fn dropped(model: &Mlp, x: Tensor<2>) -> (usize, usize) {
    let before = nums(model.relu.forward(model.fc1.forward(x.clone())));
    let after = nums(model.hidden(x));
    let live = before.iter().filter(|v| **v != 0.0).count();
    let zeroed = before.iter().zip(&after).filter(|(b, a)| **b != 0.0 && **a == 0.0).count();
    (zeroed, live)
}

fn main() {
    let device = Device::flex().autodiff();
    device.seed(0);
    let model = model(&device); // the training model stays as it is
    let x = input(&device);

    // region: infer
    let model_valid = model.valid(); // model.eval() + torch.no_grad()
    let x = x.inner(); // the input on the same plain device
    let out = model_valid.forward(x.clone());
    let again = model_valid.forward(x.clone());
    // endregion: infer
    // region: check
    assert!(!model_valid.dropout.training.is_enabled(), "dropout still in training mode");
    assert!(!out.device().is_autodiff(), "inference on the autodiff device");
    assert_eq!(out.to_data(), again.to_data(), "two inference passes differ");
    // endregion: check

    let repeatable = out.to_data() == again.to_data();
    let (zeroed, live) = dropped(&model_valid, x);
    let out = json!({
        "device_is_autodiff": out.device().is_autodiff(),
        "dropout_training": model_valid.dropout.training.is_enabled(),
        "train_dropout_training": model.dropout.training.is_enabled(),
        "out": nums(out),
        "repeatable": repeatable,
        "hidden": {"live": live, "zeroed": zeroed},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
