//! A1's model and batch, trained for ten SGD steps: the loss before every update.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, Relu};
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;
const STEPS: usize = 10;
const LR: f64 = 0.1;

// region: model
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
// endregion: model

/// A1's weights: element k (1-based, PyTorch's [out, in]) is 0.5·f(k), rounded to f32
/// once, then transposed to burn's [in, out].
fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let w: Vec<f32> = (0..out * inp)
        .map(|k| (0.5 * f((k + 1) as f64)) as f32)
        .collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [out, inp]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(b, [out]),
            device,
        ))),
    }
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    // region: init
    let mut model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };
    // endregion: init

    // region: data
    let x: Vec<f32> = (0..BATCH * IN)
        .map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32)
        .collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);
    let y: Vec<i64> = (0..BATCH as i64).map(|b| b % OUT as i64).collect();
    let y = Tensor::<1, Int>::from_data(TensorData::new(y, [BATCH]), &device);
    // endregion: data

    // region: loop
    let loss_fn = CrossEntropyLossConfig::new().init(&device);
    let mut optim = SgdConfig::new().init();
    let mut losses = Vec::new();
    for _step in 0..STEPS {
        let loss = loss_fn.forward(model.forward(x.clone()), y.clone());
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(LR, model, grads);
        losses.push(loss.into_scalar::<f32>());
    }
    // endregion: loop

    let final_loss: f32 = loss_fn.forward(model.forward(x), y).into_scalar();
    let mut loss = Map::new();
    for (k, v) in losses.iter().enumerate() {
        loss.insert(format!("step{:02}", k + 1), json!(f64::from(*v)));
    }
    let out = json!({
        "loss": loss,
        "loss_final": f64::from(final_loss),
        "params": {
            "fc1.weight": nums(model.fc1.weight.val().transpose()),
            "fc1.bias": nums(model.fc1.bias.as_ref().unwrap().val()),
            "fc2.weight": nums(model.fc2.weight.val().transpose()),
            "fc2.bias": nums(model.fc2.bias.as_ref().unwrap().val()),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
