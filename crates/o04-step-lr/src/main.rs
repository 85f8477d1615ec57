//! ModuleOptimizer::step takes the module and returns the updated one; the learning rate is
//! an argument of each call. Three SGD steps with the learning rate halved each step.
//! Prints the same JSON structure as experiments/optim/step_lr.py.
use burn::module::Param;
use burn::nn::loss::{MseLoss, Reduction};
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 3;
const OUT: usize = 2;
const B: usize = 4;

fn make_linear(device: &Device) -> Linear {
    let w: Vec<f32> = (0..OUT * IN).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let b: Vec<f32> = (0..OUT).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [OUT]), device))),
    }
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let x: Vec<f32> = (0..B * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [B, IN]), &device);
    let target: Vec<f32> = (0..B * OUT).map(|k| (0.5 * ((k + 1) as f64).cos()) as f32).collect();
    let target = Tensor::<2>::from_data(TensorData::new(target, [B, OUT]), &device);
    let loss_fn = MseLoss::new();

    // region: step
    let mut model = make_linear(&device);
    let weight_id_before = model.weight.id;
    let mut optim = SgdConfig::new().init(); // no learning rate in the config
    let (mut losses, mut lrs, mut params) = (vec![], vec![], Map::new());
    for (t, lr) in [0.1, 0.05, 0.025].into_iter().enumerate() {
        let loss = loss_fn.forward(model.forward(x.clone()), target.clone(), Reduction::Mean);
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(lr, model, grads); // the learning rate goes in with each call
        losses.push(f64::from(loss.into_scalar::<f32>()));
        lrs.push(lr);
        params.insert(
            format!("step{}", t + 1),
            json!({
                "weight": nums(model.weight.val().transpose()),
                "bias": nums(model.bias.as_ref().unwrap().val()),
            }),
        );
    }
    let same_weight_id = model.weight.id == weight_id_before;
    // endregion: step

    let out = json!({"loss": losses, "lr": lrs, "params": params, "same_weight_id": same_weight_id});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
