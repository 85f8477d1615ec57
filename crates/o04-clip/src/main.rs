//! Gradient clipping by norm: SgdConfig's GradientClippingConfig::Norm (each parameter clipped
//! by its own norm) against a global norm computed by hand, one SGD step each, from the same
//! parameters and gradients as experiments/optim/clip.py. Prints the same JSON structure.
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const MAX_NORM: f32 = 1.0;
const LR: f64 = 0.1;

// region: setup
/// Weight element k (1-based, PyTorch's [out, in] order) is 0.5·sin(k), transposed to burn's
/// [in, out]; bias element o is 0.01·o.
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

/// Weight grad element k is 1.5·cos(0.7·k + 1); the bias grad is [3, -4] (norm 5).
fn grad_tensors() -> (Tensor<2>, Tensor<1>) {
    let device = Device::flex(); // gradients carry no autodiff graph
    let gw: Vec<f32> = (0..OUT * IN)
        .map(|k| (1.5 * (0.7 * (k + 1) as f64 + 1.0).cos()) as f32)
        .collect();
    let gw = Tensor::<2>::from_data(TensorData::new(gw, [OUT, IN]), &device).transpose();
    let gb = Tensor::<1>::from_data(TensorData::new(vec![3.0f32, -4.0], [OUT]), &device);
    (gw, gb)
}

fn make_grads(lin: &Linear) -> GradientsParams {
    let (gw, gb) = grad_tensors();
    let mut grads = GradientsParams::new();
    grads.register(lin.weight.id, gw);
    grads.register(lin.bias.as_ref().unwrap().id, gb);
    grads
}
// endregion: setup

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn norm<const D: usize>(t: Tensor<D>) -> f32 {
    t.square().sum().sqrt().into_scalar()
}

fn params(lin: &Linear) -> Value {
    json!({
        "weight": nums(lin.weight.val().transpose()),
        "bias": nums(lin.bias.as_ref().unwrap().val()),
    })
}

// region: global
/// What torch's clip_grad_norm_ does: one norm over every gradient, one coefficient for all.
fn clip_global(lin: &Linear, mut grads: GradientsParams, max_norm: f32) -> GradientsParams {
    let (wid, bid) = (lin.weight.id, lin.bias.as_ref().unwrap().id);
    let gw: Tensor<2> = grads.remove(wid).unwrap();
    let gb: Tensor<1> = grads.remove(bid).unwrap();
    let total: f32 = (gw.clone().square().sum() + gb.clone().square().sum()).sqrt().into_scalar();
    let coef = (max_norm / (total + 1e-6)).min(1.0); // torch: max_norm / (total + 1e-6), at most 1
    grads.register(wid, gw.mul_scalar(coef));
    grads.register(bid, gb.mul_scalar(coef));
    grads
}
// endregion: global

fn main() {
    let device = Device::flex().autodiff();
    let (gw, gb) = grad_tensors();
    let (wn, bn) = (norm(gw.clone()), norm(gb.clone()));
    let global = (wn * wn + bn * bn).sqrt();

    // region: clip
    let mut optim = SgdConfig::new()
        .with_gradient_clipping(Some(GradientClippingConfig::Norm(MAX_NORM)))
        .init();
    let lin = make_linear(&device);
    let grads = make_grads(&lin);
    let lin = optim.step(LR, lin, grads); // each parameter clipped by its own norm
    // endregion: clip

    // The clipped gradients themselves: the function the optimizer calls on each parameter.
    let clipping = GradientClippingConfig::Norm(MAX_NORM).init();
    let (cw, cb) = (clipping.clip_gradient(gw), clipping.clip_gradient(gb));

    // region: global_step
    let mut plain = SgdConfig::new().init(); // no clipping in the config
    let lin_g = make_linear(&device);
    let grads = clip_global(&lin_g, make_grads(&lin_g), MAX_NORM);
    let lin_g = plain.step(LR, lin_g, grads);
    // endregion: global_step

    let out = json!({
        "norms": {"weight": f64::from(wn), "bias": f64::from(bn), "global": f64::from(global)},
        "clipped_grad_norms": {"weight": f64::from(norm(cw)), "bias": f64::from(norm(cb))},
        "params": params(&lin),
        "params_global": params(&lin_g),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
