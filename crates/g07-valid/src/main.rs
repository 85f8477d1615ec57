//! The A1 MLP (4→8→3) on Device::flex().autodiff(): forward as is, and forward on
//! model.valid(). Prints both logits and the autodiff flags of parameters and outputs.
use burn::module::Param;
use burn::nn::{Linear, Relu};
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

fn nums(t: Tensor<2>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // region: forward
    let out_train = model.forward(x.clone()); // records a graph

    let model_valid = model.valid(); // parameters moved to the inner (plain) device
    let out_infer = model_valid.forward(x.clone().inner()); // records nothing
    // endregion: forward

    // region: flags
    let w = model.fc1.weight.val();
    let w_valid = model_valid.fc1.weight.val();
    let flags = json!({
        "param_is_autodiff": w.is_autodiff(),
        "param_is_require_grad": w.is_require_grad(),
        "valid_param_is_autodiff": w_valid.is_autodiff(),
        "valid_param_is_require_grad": w_valid.is_require_grad(),
        "train_out_is_autodiff": out_train.is_autodiff(),
        "train_out_is_tracked": out_train.is_tracked(),
        "infer_out_is_autodiff": out_infer.is_autodiff(),
        "infer_out_is_tracked": out_infer.is_tracked(),
        // model.train() turns the snapshot back into a trainable autodiff module
        "retrained_param_is_require_grad": model_valid.clone().train().fc1.weight.is_require_grad(),
    });
    // endregion: flags

    let diff = (out_train.clone().inner() - out_infer.clone()).abs().max().into_scalar::<f32>();
    println!(
        "{}",
        json!({
            "logits_train": nums(out_train.inner()),
            "logits_infer": nums(out_infer),
            "max_abs_diff": f64::from(diff),
            "flags": flags,
        })
    );
}
