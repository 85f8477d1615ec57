//! The scale habit of param_map.py ported literally: Param::map(|w| w * 0.5) on the
//! weight of a Linear on the autodiff device, then SGD steps. Progress goes to stderr.
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;

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

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::cos, 0.5), [B, IN]), &device);
    let y = Tensor::<2>::from_data(TensorData::new(seq(B * OUT, f64::sin, 0.3), [B, OUT]), &device);

    let mut fc = make_linear(&device);
    let id_before = fc.weight.id;
    // region: scale
    fc.weight = fc.weight.map(|w| w * 0.5); // e.g. a scaled init
    // endregion: scale
    eprintln!(
        "after map: same ParamId = {}, weight.is_require_grad() = {}, weight.is_tracked() = {}",
        fc.weight.id == id_before,
        fc.weight.val().is_require_grad(),
        fc.weight.val().is_tracked(),
    );

    // region: train
    let mut optim = SgdConfig::new().init();
    for step in 1..=STEPS {
        eprintln!("step {step}");
        let loss = (fc.forward(x.clone()) - y.clone()).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &fc);
        eprintln!("  loss = {}, parameters with a gradient: {}", loss.into_scalar::<f32>(), grads.len());
        fc = optim.step(LR, fc, grads);
    }
    // endregion: train
}
