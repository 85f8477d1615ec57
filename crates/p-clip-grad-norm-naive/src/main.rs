//! clip_grad_norm.py ported with the clipping put where burn has it: on the optimizer config.
//! burn clips each parameter's gradient by its own norm.
use burn::grad_clipping::GradientClippingConfig;
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const B: usize = 4;
const MAX_NORM: f32 = 1.0;
const LR: f64 = 0.1;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

/// PyTorch's [out, in] weight; burn's Linear stores [in, out], so transpose.
fn make_linear(device: &Device) -> Linear {
    let w = Tensor::<2>::from_data(TensorData::new(seq(OUT * IN, f64::sin, 0.5), [OUT, IN]), device);
    let b = Tensor::<1>::from_data(TensorData::new(seq(OUT, f64::cos, 0.5), [OUT]), device);
    Linear { weight: Param::from_tensor(w.transpose()), bias: Some(Param::from_tensor(b)) }
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn norm<const D: usize>(t: Tensor<D>) -> f64 {
    f64::from(t.square().sum().sqrt().into_scalar::<f32>())
}

fn main() {
    let device = Device::flex().autodiff();
    let mut lin = make_linear(&device);
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::sin, 1.0), [B, IN]), &device);
    let y = Tensor::<2>::from_data(TensorData::new(seq(B * OUT, f64::cos, 1.5), [B, OUT]), &device)
        .add_scalar(0.5);
    let (w0, b0) = (lin.weight.val().inner(), lin.bias.as_ref().unwrap().val().inner());

    // region: step
    let clip = GradientClippingConfig::Norm(MAX_NORM); // clip_grad_norm_(max_norm=1.0)
    let mut optim = SgdConfig::new().with_gradient_clipping(Some(clip)).init();
    let loss = (lin.forward(x) - y).powi_scalar(2).mean();
    let grads = GradientsParams::from_grads(loss.backward(), &lin);
    // endregion: step
    let gw = grads.get::<2>(lin.weight.id).unwrap();
    let gb = grads.get::<1>(lin.bias.as_ref().unwrap().id).unwrap();
    let raw = (norm(gw.clone()), norm(gb.clone()));
    // region: apply
    lin = optim.step(LR, lin, grads);
    // endregion: apply

    // The gradients step() used, read back from the update: p0 - p1 = lr * g.
    let (w1, b1) = (lin.weight.val().inner(), lin.bias.as_ref().unwrap().val().inner());
    let used_w = (w0 - w1.clone()).div_scalar(LR);
    let used_b = (b0 - b1.clone()).div_scalar(LR);
    let used = (norm(used_w), norm(used_b));
    let out = json!({
        "max_norm": f64::from(MAX_NORM),
        "raw_norms": {"weight": raw.0, "bias": raw.1, "total": raw.0.hypot(raw.1)},
        "used_norms": {"weight": used.0, "bias": used.1, "total": used.0.hypot(used.1)},
        "scale": {"weight": used.0 / raw.0, "bias": used.1 / raw.1},
        "weight": nums(w1.transpose()), // [out, in], as PyTorch prints it
        "bias": nums(b1),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
