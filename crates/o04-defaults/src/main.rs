//! The defaults of burn's SgdConfig, MomentumConfig, AdamConfig and RmsPropConfig, as the
//! configs serialise themselves; then three steps with the defaults, to set against
//! PyTorch's defaults in experiments/optim/defaults.py.
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, RmsPropConfig, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 3;
const OUT: usize = 2;
const STEPS: usize = 3;

/// Same parameters and gradients as crates/o04-steps.
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

fn make_grads(lin: &Linear, t: usize) -> GradientsParams {
    let device = Device::flex();
    let gw: Vec<f32> = (0..OUT * IN)
        .map(|k| (0.1 * (0.7 * (k + 1) as f64 + t as f64).cos()) as f32)
        .collect();
    let gb: Vec<f32> = (0..OUT)
        .map(|o| (1e-6 * ((o + 1 + 2 * t) as f64).sin()) as f32)
        .collect();
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
    let table = json!({
        "SgdConfig": serde_json::to_value(SgdConfig::new()).unwrap(),
        "MomentumConfig": serde_json::to_value(MomentumConfig::new()).unwrap(),
        "AdamConfig": serde_json::to_value(AdamConfig::new()).unwrap(),
        "RmsPropConfig": serde_json::to_value(RmsPropConfig::new()).unwrap(),
    });
    // endregion: defaults

    // region: runs
    // burn has no default learning rate: pass PyTorch's default to each step.
    let params = json!({
        "sgd_momentum": run(SgdConfig::new().with_momentum(Some(MomentumConfig::new())).init(), 0.001),
        "adam": run(AdamConfig::new().init(), 0.001),
        "rmsprop": run(RmsPropConfig::new().init(), 0.01),
    });
    // endregion: runs

    let out = json!({"defaults": table, "params": params});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
