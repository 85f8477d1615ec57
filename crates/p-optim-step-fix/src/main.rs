//! The loop of optim_step.py, fixed: the model returned by optim.step replaces the old one.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, Relu};
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const B: usize = 4;
const STEPS: usize = 5;
const LR: f64 = 0.1;

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

/// Weight element k (1-based) of PyTorch's [out, in] is 0.5·f(k), computed in f64, rounded
/// to f32 once, transposed to burn's [in, out]; bias element o is 0.01·o.
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

fn main() {
    let device = Device::flex().autodiff();
    let x: Vec<f32> = (0..B * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [B, IN]), &device);
    let y: Vec<i64> = (0..B as i64).map(|b| b % OUT as i64).collect();
    let y = Tensor::<1, Int>::from_data(TensorData::new(y, [B]), &device);
    let loss_fn = CrossEntropyLossConfig::new().init(&device);
    let mut model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };

    let initial_bias = model.fc2.bias.as_ref().unwrap().val();

    // region: train
    let mut optim = SgdConfig::new().init();
    let mut losses = vec![];
    for _step in 0..STEPS {
        let loss = loss_fn.forward(model.forward(x.clone()), y.clone());
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(LR, model, grads); // step takes the model and returns the updated one
    }
    // endregion: train
    // region: check
    let trained_bias = model.fc2.bias.as_ref().unwrap().val();
    assert!(
        !trained_bias.equal(initial_bias.clone()).all().into_scalar::<bool>(),
        "the parameters did not change: was the model returned by optim.step dropped?"
    );
    // endregion: check
    let last = loss_fn.forward(model.forward(x), y).into_scalar::<f32>();
    losses.push(f64::from(last));
    let fc2_bias: Vec<f32> = model.fc2.bias.as_ref().unwrap().val().into_data().try_to_vec().unwrap();
    let params_changed = !model.fc2.bias.as_ref().unwrap().val()
        .equal(initial_bias).all().into_scalar::<bool>();
    let out = json!({
        "config": {"in": IN, "hidden": HID, "out": OUT, "batch": B, "steps": STEPS, "lr": LR,
                   "optimizer": "SGD"},
        "losses": losses,
        "loss_went_down": losses[STEPS] < losses[0],
        "params_changed": params_changed,
        "fc2_bias": fc2_bias.into_iter().map(f64::from).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
