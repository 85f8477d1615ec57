//! burn's optimizer defaults, as the configs serialise themselves, and two steps of each
//! optimizer built from `XxxConfig::new()` alone, the way a port of
//! experiments/pitfalls/optim-defaults/optim_defaults.py looks when only the learning rate
//! is carried over (burn has no default for it).
use burn::grad_clipping::GradientClippingConfig;
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, AdamWConfig, GradientsParams, ModuleOptimizer, RmsPropConfig, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 4;
const OUT: usize = 3;
const STEPS: usize = 2;

/// Element k (1-based, PyTorch's [out, in] order) of the weight is 0.5·sin(k), bias o is
/// 0.5·cos(o + 1); burn's Linear stores [in, out], so transpose.
fn make_linear(device: &Device) -> Linear {
    let w: Vec<f32> = (0..OUT * IN).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let b: Vec<f32> = (0..OUT).map(|o| (0.5 * ((o + 1) as f64).cos()) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [OUT]), device))),
    }
}

/// The same fixed gradients as the Python side, registered under the parameters' ids.
fn make_grads(lin: &Linear, t: usize) -> GradientsParams {
    let device = Device::flex();
    let gw: Vec<f32> = (0..OUT * IN)
        .map(|k| {
            let k = (k + 1) as f64;
            (2.0 * (0.7 * k + t as f64).cos() * 10f64.powi(-((k as i32) % 6))) as f32
        })
        .collect();
    let gb: Vec<f32> = (0..OUT).map(|o| (0.5 * ((o + 1 + 2 * t) as f64).sin()) as f32).collect();
    let mut grads = GradientsParams::new();
    grads.register(
        lin.weight.id,
        Tensor::<2>::from_data(TensorData::new(gw, [OUT, IN]), &device).transpose(),
    );
    grads.register(
        lin.bias.as_ref().unwrap().id,
        Tensor::<1>::from_data(TensorData::new(gb, [OUT]), &device),
    );
    grads
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn run(mut optim: ModuleOptimizer, lr: f64) -> Value {
    let mut lin = make_linear(&Device::flex().autodiff());
    let mut out = Map::new();
    for t in 1..=STEPS {
        let grads = make_grads(&lin, t);
        lin = optim.step(lr, lin, grads);
        out.insert(
            format!("step{t}"),
            json!({
                "weight": nums(lin.weight.val().transpose()),
                "bias": nums(lin.bias.as_ref().unwrap().val()),
            }),
        );
    }
    Value::Object(out)
}

fn main() {
    // region: defaults
    // Every default, read from the configs themselves.
    let configs = json!({
        "SgdConfig": serde_json::to_value(SgdConfig::new()).unwrap(),
        "MomentumConfig": serde_json::to_value(MomentumConfig::new()).unwrap(),
        "AdamConfig": serde_json::to_value(AdamConfig::new()).unwrap(),
        "AdamWConfig": serde_json::to_value(AdamWConfig::new()).unwrap(),
        "RmsPropConfig": serde_json::to_value(RmsPropConfig::new()).unwrap(),
    });
    // endregion: defaults

    // region: runs
    // A port that keeps burn's defaults. burn has no default learning rate: it is an
    // argument of every step, so PyTorch's default is passed there.
    let mut params = Map::new();
    params.insert("sgd".into(), run(SgdConfig::new().init(), 1e-3));
    let momentum = MomentumConfig::new().with_momentum(0.9);
    params.insert(
        "sgd_momentum".into(),
        run(SgdConfig::new().with_momentum(Some(momentum)).init(), 1e-3),
    );
    params.insert("adam".into(), run(AdamConfig::new().init(), 1e-3));
    params.insert("adamw".into(), run(AdamWConfig::new().init(), 1e-3));
    params.insert("rmsprop".into(), run(RmsPropConfig::new().init(), 1e-2));
    // endregion: runs

    // region: clip
    // Clipping is part of burn's optimizer config.
    let clip = SgdConfig::new().with_gradient_clipping(Some(GradientClippingConfig::Norm(1.0)));
    params.insert("sgd_clip".into(), run(clip.init(), 1e-3));
    // endregion: clip

    let out = json!({"defaults": configs, "params": params});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
