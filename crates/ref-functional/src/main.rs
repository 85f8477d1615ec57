//! The torch → burn map, autograd, activation and loss rows: one call per row of
//! ref-2-functional.yaml's table. The inputs are the PyTorch script's numbers (see its
//! docstring), computed in f64 and rounded to f32 once; every row prints the same keys.
use burn::module::Param;
use burn::nn::activation as act;
use burn::nn::loss::{
    BinaryCrossEntropyLossConfig, CrossEntropyLossConfig, HuberLossConfig, KLDivLossConfig,
    LpLossConfig, MseLoss, Reduction, SmoothL1LossConfig,
};
use burn::nn::Linear;
use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::{GradientsAccumulator, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation as fun;
use burn::tensor::loss::cross_entropy_with_logits;
use serde_json::{json, Map, Value};

fn grid<const D: usize>(f: impl Fn(f64) -> f64, shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| f((k + 1) as f64) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.sin(), shape, device)
}

fn coef<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.cos(), shape, device)
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// ---------------------------------------------------------------- autograd

fn linear(device: &Device) -> Linear {
    // torch's weight is [out, in]; burn stores [in, out].
    Linear {
        weight: Param::from_tensor(data([2, 3], device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::from_floats([0.0, 0.01], device))),
    }
}

fn clip_grads() -> (Tensor<2>, Tensor<1>) {
    let d = Device::flex();
    (grid(|k| 1.5 * (0.7 * k + 1.0).cos(), [2, 3], &d), Tensor::<1>::from_floats([3.0, -4.0], &d))
}

fn autograd(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let x = data([6], &ad).require_grad();
    let g = (x.clone() * x.clone()).sum().backward();
    row("requires_grad", json!({"require_grad": x.is_require_grad(), "grad": nums(x.grad(&g).unwrap())}));

    let x = data([2, 3], &ad).require_grad();
    let f = (x.clone().tanh() * coef([2, 3], &ad)).sum();
    let g = f.backward();
    let gx = x.grad(&g).unwrap();
    row("backward_scalar", json!({"f": nums(f), "shape": gx.dims(), "grad": nums(gx)}));

    // A non-scalar root: burn seeds it with ones, as torch's y.backward(ones_like(y)).
    let x = data([4], &ad).require_grad();
    let g = (x.clone() * x.clone() * x.clone()).backward();
    row("backward_nonscalar", json!({"grad": nums(x.grad(&g).unwrap())}));

    let (x, c) = (data([3], &ad).require_grad(), coef([3], &ad));
    let g = (x.clone() * c.clone()).sum().backward();
    row("constant_grad", json!({"c_has_grad": c.grad(&g).is_some(), "grad": nums(x.grad(&g).unwrap())}));

    // No autograd.grad: backward() returns every leaf's gradient, read the one wanted.
    let x = data([2, 3], &ad).require_grad();
    let gx = x.grad(&(x.clone().tanh() * coef([2, 3], &ad)).sum().backward()).unwrap();
    row("autograd_grad", json!({"grad_tracked": gx.is_autodiff(), "grad": nums(gx)}));

    let x = data([3], &ad).require_grad();
    let mut g = (x.clone() * x.clone()).sum().backward();
    let gx = x.grad_remove(&mut g).unwrap();
    row("grad_remove", json!({"after": x.grad(&g).is_some(), "grad": nums(gx)}));

    let lin = linear(&ad).no_grad();
    let x = data([2, 3], &ad).require_grad();
    let g = lin.forward(x.clone()).sum().backward();
    row("module_freeze", json!({
        "weight_require_grad": lin.weight.is_require_grad(),
        "weight_has_grad": lin.weight.val().grad(&g).is_some(),
        "x_grad": nums(x.grad(&g).unwrap()),
    }));

    let x = data([3], &ad).require_grad();
    let y = x.clone() * 2.0;
    let g = (y.clone() * y.clone()).sum().backward();
    row("nonleaf_grad", json!({"y_has_grad": y.grad(&g).is_some(), "x_grad": nums(x.grad(&g).unwrap())}));

    // No retain_grad: cut the graph at y and make it a leaf of its own.
    let x = data([3], &ad).require_grad();
    let y = (x * 2.0).detach().require_grad();
    let g = (y.clone() * y.clone()).sum().backward();
    row("retain_grad", json!({"y_grad": nums(y.grad(&g).unwrap())}));

    // No no_grad block: compute on the inner (plain) backend.
    let w = data([3], &ad).require_grad();
    let y = w.inner() * coef([3], &Device::flex());
    row("no_grad", json!({"tracked": y.is_autodiff(), "v": nums(y)}));

    let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &ad).require_grad();
    let y = x.clone() * x.clone();
    let z = y.clone().detach();
    let g = (y * z.clone()).sum().backward();
    row("detach", json!({"z_require_grad": z.is_require_grad(), "grad": nums(x.grad(&g).unwrap())}));

    let x = data([3], &ad).require_grad().set_require_grad(false);
    let y = x.clone() * x.clone();
    row("requires_grad_false", json!({"require_grad": x.is_require_grad(), "tracked": y.is_tracked()}));

    // Every backward() returns fresh gradients: nothing is added to an earlier call's.
    let x = data([3], &ad).require_grad();
    let g1 = (x.clone() * x.clone()).sum().backward();
    let g2 = (x.clone() * coef([3], &ad)).sum().backward();
    row("grad_accum_naive", json!({"grad": nums(x.grad(&g2).unwrap())}));
    row("grad_accum_sum", json!({"grad": nums(x.grad(&g1).unwrap() + x.grad(&g2).unwrap())}));

    let lin = linear(&ad);
    let mut accum = GradientsAccumulator::<Linear>::new();
    for i in 0..2 {
        let x = grid(|k| 0.1 * (k + 6.0 * i as f64) - 0.5, [2, 3], &ad);
        let loss = MseLoss::new().forward(lin.forward(x), coef([2, 2], &ad) * (i + 1) as f64, Reduction::Mean);
        accum.accumulate(&lin, GradientsParams::from_grads(loss.backward(), &lin));
    }
    let grads = accum.grads();
    let gw: Tensor<2> = grads.get(lin.weight.id).unwrap();
    let gb: Tensor<1> = grads.get(lin.bias.as_ref().unwrap().id).unwrap();
    row("grad_accum_module", json!({"weight": nums(gw.transpose()), "bias": nums(gb)}));

    // The optimizer's clipping: each parameter by its own norm.
    let clip = GradientClippingConfig::Norm(1.0).init();
    let (gw, gb) = clip_grads();
    row("clip_grad_norm", json!({"w": nums(clip.clip_gradient(gw)), "b": nums(clip.clip_gradient(gb))}));

    // torch's clip_grad_norm_ by hand: one norm over all gradients, one coefficient.
    let (gw, gb) = clip_grads();
    let total = (gw.clone().square().sum() + gb.clone().square().sum()).sqrt();
    let max_norm = 1.0;
    let coef_ = (total.add_scalar(1e-6).recip() * max_norm).clamp_max(1.0);
    row("clip_grad_norm_global", json!({
        "w": nums(gw * coef_.clone().unsqueeze::<2>()), "b": nums(gb * coef_),
    }));

    let clip = GradientClippingConfig::Value(1.0).init();
    let (gw, gb) = clip_grads();
    row("clip_grad_value", json!({"w": nums(clip.clip_gradient(gw)), "b": nums(clip.clip_gradient(gb))}));
}

// ---------------------------------------------------------------- activations

const ACT_X: [f32; 12] = [-25.0, -5.0, -2.5, -1.5, -0.75, -0.25, 0.25, 0.75, 1.5, 2.5, 5.0, 25.0];
const KINK_X: [f32; 6] = [-3.0, -1.0, 0.0, 1.0, 3.0, 6.0];

fn a(f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    at(&ACT_X, f)
}

fn at(points: &[f32], f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    let x = Tensor::<1>::from_floats(points, &Device::flex().autodiff()).require_grad();
    let y = f(x.clone());
    let g = y.clone().sum().backward();
    json!({"y": nums(y), "dy": nums(x.grad(&g).unwrap())})
}

fn a_dim(f: impl Fn(Tensor<2>) -> Tensor<2>) -> Value {
    let ad = Device::flex().autodiff();
    let x = Tensor::<1>::from_floats(ACT_X, &ad).reshape([3, 4]).require_grad();
    let y = f(x.clone());
    let g = (y.clone() * coef([3, 4], &ad)).sum().backward();
    json!({"y": nums(y), "dy": nums(x.grad(&g).unwrap())})
}

fn activations(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    row("relu", a(|x| act::Relu::new().forward(x)));
    row("leaky_relu_default", a(|x| act::LeakyReluConfig::new().init().forward(x)));
    row("leaky_relu_slope", a(|x| act::LeakyReluConfig::new().with_negative_slope(0.2).init().forward(x)));
    row("prelu_default", a(|x| act::PReluConfig::new().init(&ad).forward(x)));
    row("gelu_exact", a(|x| act::Gelu::new().forward(x)));
    row("gelu_tanh", a(|x| act::Gelu::new_approximate().forward(x)));
    row("silu", a(|x| act::SiLU::new().forward(x)));
    row("sigmoid", a(|x| act::Sigmoid::new().forward(x)));
    row("log_sigmoid", a(|x| act::LogSigmoid::new().forward(x)));
    row("tanh", a(|x| act::Tanh::new().forward(x)));
    row("softplus_default", a(|x| act::SoftplusConfig::new().init().forward(x)));
    row("softplus_beta", a(|x| act::SoftplusConfig::new().with_beta(2.0).with_threshold(10.0).init().forward(x)));
    row("softmax", a_dim(|x| fun::softmax(x, 1)));
    row("log_softmax", a_dim(|x| fun::log_softmax(x, 1)));
    row("hardtanh", a(|x| act::HardtanhConfig::new().init().forward(x)));
    row("relu6", a(|x| act::Relu6::new().forward(x)));
    row("hardsigmoid", a(|x| act::HardSigmoidConfig::new().init().forward(x)));
    row("hardsigmoid_sixth", a(|x| act::HardSigmoidConfig::new().with_alpha(1.0 / 6.0).init().forward(x)));
    row("hardswish", a(|x| act::HardSwish::new().forward(x)));
    row("elu", a(|x| act::EluConfig::new().init().forward(x)));
    row("selu", a(|x| act::Selu::new().forward(x)));
    row("celu", a(|x| act::CeluConfig::new().init().forward(x)));
    row("mish", a(|x| act::Mish::new().forward(x)));
    row("softsign", a(|x| act::Softsign::new().forward(x)));

    // At the kinks each side picks a one-sided derivative: KINK_X only.
    row("relu_kink", at(&KINK_X, |x| act::Relu::new().forward(x)));
    row("leaky_relu_kink", at(&KINK_X, |x| act::LeakyReluConfig::new().init().forward(x)));
    row("hardtanh_kink", at(&KINK_X, |x| act::HardtanhConfig::new().init().forward(x)));
    row("relu6_kink", at(&KINK_X, |x| act::Relu6::new().forward(x)));
    row("hardswish_kink", at(&KINK_X, |x| act::HardSwish::new().forward(x)));
    row("elu_kink", at(&KINK_X, |x| act::EluConfig::new().init().forward(x)));
    row("selu_kink", at(&KINK_X, |x| act::Selu::new().forward(x)));
}

// ---------------------------------------------------------------- losses

const B: usize = 4;
const C: usize = 3;
const TARGETS: [i64; 4] = [2, 0, 1, 2];
const BIN: [i64; 12] = [1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0];

fn logits(ad: &Device) -> Tensor<2> {
    grid(|k| 2.0 * k.sin(), [B, C], ad).require_grad()
}

fn targets(ad: &Device) -> Tensor<1, Int> {
    Tensor::<1, Int>::from_data(TensorData::new(TARGETS.to_vec(), [B]), ad)
}

fn bin(ad: &Device) -> Tensor<2, Int> {
    Tensor::<2, Int>::from_data(TensorData::new(BIN.to_vec(), [B, C]), ad)
}

/// Soft targets: a softmax of 0.5·cos(k), in f64 per row, rounded once.
fn probs_target(ad: &Device) -> Tensor<2> {
    let mut v = Vec::new();
    for r in 0..B {
        let e: Vec<f64> = (0..C).map(|c| (0.5 * ((r * C + c + 1) as f64).cos()).exp()).collect();
        let s: f64 = e.iter().sum();
        v.extend(e.iter().map(|x| (x / s) as f32));
    }
    Tensor::<2>::from_data(TensorData::new(v, [B, C]), ad)
}

fn loss_out<const D: usize>(loss: Tensor<D>, x: &Tensor<2>) -> Value {
    let g = loss.clone().sum().backward();
    json!({"loss": nums(loss), "grad": nums(x.grad(&g).unwrap())})
}

fn ce_with(cfg: CrossEntropyLossConfig) -> Value {
    let ad = Device::flex().autodiff();
    let x = logits(&ad);
    loss_out(cfg.init(&ad).forward(x.clone(), targets(&ad)), &x)
}

fn losses(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let w3 = || Some(vec![1.0, 2.0, 0.5]);
    row("ce_index", ce_with(CrossEntropyLossConfig::new()));
    let x = logits(&ad);
    row("ce_probs", loss_out(cross_entropy_with_logits(x.clone(), probs_target(&ad)), &x));
    row("ce_smoothing", ce_with(CrossEntropyLossConfig::new().with_smoothing(Some(0.1))));
    row("ce_weight", ce_with(CrossEntropyLossConfig::new().with_weights(w3())));
    row("ce_weight_smoothing", ce_with(CrossEntropyLossConfig::new().with_weights(w3()).with_smoothing(Some(0.1))));
    row("ce_ignore_index", ce_with(CrossEntropyLossConfig::new().with_pad_tokens(Some(vec![1]))));

    // CrossEntropyLoss always takes the mean: per-sample losses by hand.
    let per_sample = |x: Tensor<2>| {
        fun::log_softmax(x, 1).gather(1, targets(&ad).reshape([B, 1])).reshape([B]).neg()
    };
    let x = logits(&ad);
    row("ce_sum", loss_out(per_sample(x.clone()).sum(), &x));
    let x = logits(&ad);
    row("ce_none", loss_out(per_sample(x.clone()), &x));
    let x = logits(&ad);
    row("nll", loss_out(per_sample(x.clone()).mean(), &x));

    let bce_probs = || grid(|k| 1.0 / (1.0 + (-2.0 * k.sin()).exp()), [B, C], &ad).require_grad();
    let p = bce_probs();
    row("bce", loss_out(BinaryCrossEntropyLossConfig::new().init(&ad).forward(p.clone(), bin(&ad)), &p));
    let p = bce_probs();
    let bce_w = BinaryCrossEntropyLossConfig::new().with_weights(w3()).init(&ad);
    row("bce_weight", loss_out(bce_w.forward(p.clone(), bin(&ad)), &p));
    let x = logits(&ad);
    let bce_l = BinaryCrossEntropyLossConfig::new().with_logits(true).init(&ad);
    row("bce_logits", loss_out(bce_l.forward(x.clone(), bin(&ad)), &x));

    // No pos_weight, no float targets: torch's formula by hand,
    // -(pw·y·logσ(x) + (1 − y)·logσ(−x)), averaged.
    let bce_manual = |x: Tensor<2>, y: Tensor<2>, pw: Tensor<1>| {
        let pw = pw.unsqueeze::<2>();
        ((y.clone() * pw * fun::log_sigmoid(x.clone())) + (y.neg() + 1.0) * fun::log_sigmoid(x.neg()))
            .mean()
            .neg()
    };
    let x = logits(&ad);
    let pw = Tensor::<1>::from_floats([3.0, 1.0, 0.5], &ad);
    row("bce_logits_pos_weight", loss_out(bce_manual(x.clone(), bin(&ad).float(), pw), &x));
    let x = logits(&ad);
    let ones = Tensor::<1>::ones([C], &ad);
    row("bce_soft_targets", loss_out(bce_manual(x.clone(), probs_target(&ad), ones), &x));

    let pred = || grid(|k| 2.0 * k.sin(), [B, C], &ad).require_grad();
    let target = || coef([B, C], &ad);
    let p = pred();
    row("mse", loss_out(MseLoss::new().forward(p.clone(), target(), Reduction::Mean), &p));
    let p = pred();
    row("mse_sum", loss_out(MseLoss::new().forward(p.clone(), target(), Reduction::Sum), &p));
    let p = pred();
    row("mse_none", loss_out(MseLoss::new().forward_no_reduction(p.clone(), target()), &p));
    let p = pred();
    row("l1", loss_out(LpLossConfig::l1().forward(p.clone(), target(), Reduction::Mean), &p));
    let p = pred();
    let sl1 = SmoothL1LossConfig::new().init();
    row("smooth_l1_default", loss_out(sl1.forward_with_reduction(p.clone(), target(), Reduction::Mean), &p));
    let p = pred();
    let sl1 = SmoothL1LossConfig::new().with_beta(0.5).init();
    row("smooth_l1_beta", loss_out(sl1.forward_with_reduction(p.clone(), target(), Reduction::Mean), &p));
    let p = pred();
    let huber = HuberLossConfig::new(2.0).init();
    row("huber", loss_out(huber.forward(p.clone(), target(), Reduction::Mean), &p));
    let p = pred();
    row("huber_vs_smooth_l1", loss_out(huber.forward(p.clone(), target(), Reduction::Mean), &p));

    let kl = KLDivLossConfig::new().init();
    let x = logits(&ad);
    row("kldiv_batchmean", loss_out(kl.forward(fun::log_softmax(x.clone(), 1), probs_target(&ad), Reduction::BatchMean), &x));
    let x = logits(&ad);
    let kl_log = KLDivLossConfig::new().with_log_target(true).init();
    row("kldiv_log_target", loss_out(kl_log.forward(fun::log_softmax(x.clone(), 1), probs_target(&ad).log(), Reduction::BatchMean), &x));
    let x = logits(&ad);
    row("kldiv_mean", loss_out(kl.forward(fun::log_softmax(x.clone(), 1), probs_target(&ad), Reduction::Mean), &x));
    let x = logits(&ad);
    row("kldiv_default", loss_out(kl.forward(fun::log_softmax(x.clone(), 1), probs_target(&ad), Reduction::Auto), &x));
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    autograd(&mut row);
    activations(&mut row);
    losses(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
