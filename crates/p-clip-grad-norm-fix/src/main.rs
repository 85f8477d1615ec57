//! clip_grad_norm.py ported with PyTorch's clip_grad_norm_ written out: one norm over all the
//! gradients in GradientsParams, one factor for all of them, no clipping in the optimizer.
use burn::module::{Module, ModuleVisitor, Param};
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const B: usize = 4;
const MAX_NORM: f32 = 1.0;
const LR: f64 = 0.1;

// region: clip
/// Adds up the squared norm of every parameter's gradient.
struct SquaredNorm<'a> {
    grads: &'a GradientsParams,
    sum: Option<Tensor<1>>,
}

impl ModuleVisitor for SquaredNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let sq = g.square().sum();
            self.sum = Some(match self.sum.take() {
                Some(s) => s + sq,
                None => sq,
            });
        }
    }
}

/// Multiplies every parameter's gradient by the same factor.
struct Scale<'a> {
    grads: &'a mut GradientsParams,
    coef: Tensor<1>,
}

impl ModuleVisitor for Scale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            self.grads.register(param.id, g * self.coef.clone().unsqueeze::<D>());
        }
    }
}

/// torch.nn.utils.clip_grad_norm_: returns the total norm before clipping.
fn clip_grad_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    let mut sq = SquaredNorm { grads, sum: None };
    model.visit(&mut sq);
    let Some(total) = sq.sum.map(|s| s.sqrt()) else { return 0.0 };
    // Same formula as torch: max_norm / (total + 1e-6), never above 1.
    let coef = total.clone().add_scalar(1e-6).recip().mul_scalar(max_norm).clamp_max(1.0);
    model.visit(&mut Scale { grads, coef });
    total.into_scalar::<f32>()
}
// endregion: clip

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
    let (w_id, b_id) = (lin.weight.id, lin.bias.as_ref().unwrap().id);

    // region: step
    let mut optim = SgdConfig::new().init(); // no clipping in the optimizer
    let loss = (lin.forward(x) - y).powi_scalar(2).mean();
    let mut grads = GradientsParams::from_grads(loss.backward(), &lin);
    let raw = (norm(grads.get::<2>(w_id).unwrap()), norm(grads.get::<1>(b_id).unwrap()));
    let total = clip_grad_norm(&lin, &mut grads, MAX_NORM);
    // endregion: step
    // region: check
    let mut after = SquaredNorm { grads: &grads, sum: None };
    lin.visit(&mut after);
    let clipped = after.sum.unwrap().sqrt().into_scalar::<f32>();
    assert!(clipped <= MAX_NORM * (1.0 + 1e-6), "global norm {clipped} after clipping");
    // endregion: check
    lin = optim.step(LR, lin, grads);

    // The gradients step() used, read back from the update: p0 - p1 = lr * g.
    let (w1, b1) = (lin.weight.val().inner(), lin.bias.as_ref().unwrap().val().inner());
    let used_w = (w0 - w1.clone()).div_scalar(LR);
    let used_b = (b0 - b1.clone()).div_scalar(LR);
    let used = (norm(used_w), norm(used_b));
    let out = json!({
        "max_norm": f64::from(MAX_NORM),
        "raw_norms": {"weight": raw.0, "bias": raw.1, "total": f64::from(total)},
        "clipped_total_norm": f64::from(clipped),
        "used_norms": {"weight": used.0, "bias": used.1, "total": used.0.hypot(used.1)},
        "scale": {"weight": used.0 / raw.0, "bias": used.1 / raw.1},
        "weight": nums(w1.transpose()), // [out, in], as PyTorch prints it
        "bias": nums(b1),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
