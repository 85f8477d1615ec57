//! The copy habit of param_map.py ported literally: Param::map that returns a tensor built
//! from data, on the weight of a Linear on the autodiff device, then SGD steps.
//! Prints the same JSON structure as param_map.py (under "copy").
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const B: usize = 4;
const STEPS: usize = 5;
const LR: f64 = 0.1;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

/// Weight element k of PyTorch's [out, in] is 0.5·sin(k), transposed to burn's [in, out].
fn make_linear(device: &Device) -> Linear {
    let w = TensorData::new(seq(OUT * IN, f64::sin, 0.5), [OUT, IN]);
    let b: Vec<f32> = (0..OUT).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(w, device).transpose()),
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
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::cos, 0.5), [B, IN]), &device);
    let y = Tensor::<2>::from_data(TensorData::new(seq(B * OUT, f64::sin, 0.3), [B, OUT]), &device);

    let mut fc = make_linear(&device);
    let id_before = fc.weight.id;
    // region: copy
    let w_new = TensorData::new(seq(OUT * IN, f64::cos, 0.2), [OUT, IN]);
    fc.weight = fc
        .weight
        .map(|_w| Tensor::<2>::from_data(w_new, &device).transpose()); // e.g. values from elsewhere
    // endregion: copy
    let edited = fc.weight.val();
    let same_id = fc.weight.id == id_before;
    let require_grad = edited.is_require_grad();

    // region: train
    let mut optim = SgdConfig::new().init();
    let (mut losses, mut with_grad) = (vec![], vec![]);
    for _ in 0..STEPS {
        let loss = (fc.forward(x.clone()) - y.clone()).powi_scalar(2).mean();
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &fc);
        with_grad.push(grads.len());
        fc = optim.step(LR, fc, grads);
    }
    // endregion: train
    let last = (fc.forward(x) - y).powi_scalar(2).mean();
    losses.push(f64::from(last.into_scalar::<f32>()));
    let weight = fc.weight.val();
    let out = json!({
        "config": {"in": IN, "out": OUT, "batch": B, "steps": STEPS, "lr": LR, "optimizer": "SGD"},
        "copy": {
            "same_parameter_object": same_id,
            "requires_grad_after_edit": require_grad,
            "weight_after_edit": nums(edited.clone().transpose()),
            "losses": losses,
            "params_with_grad": with_grad,
            "weight": nums(weight.clone().transpose()),
            "bias": nums(fc.bias.as_ref().unwrap().val()),
            "weight_trained": !weight.inner().equal(edited.inner()).all().into_scalar::<bool>(),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
