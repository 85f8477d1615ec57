//! The same two steps as crates/p-optim-defaults-naive, with every hyper-parameter set
//! explicitly to PyTorch's default, and gradient clipping done PyTorch's way: one norm over
//! all parameters, before the step.
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

// region: clip
/// PyTorch's clip_grad_norm_: one norm over all gradients together, one scale factor for all.
fn clip_grad_norm(lin: &Linear, mut grads: GradientsParams, max_norm: f64) -> GradientsParams {
    let (w_id, b_id) = (lin.weight.id, lin.bias.as_ref().unwrap().id);
    let gw = grads.remove::<2>(w_id).unwrap();
    let gb = grads.remove::<1>(b_id).unwrap();
    let norm = |sq: Tensor<1>| sq.sqrt().into_scalar::<f32>() as f64;
    let (nw, nb) = (norm(gw.clone().square().sum()), norm(gb.clone().square().sum()));
    let total = (nw * nw + nb * nb).sqrt();
    let coef = (max_norm / (total + 1e-6)).min(1.0);
    grads.register(w_id, gw.mul_scalar(coef));
    grads.register(b_id, gb.mul_scalar(coef));
    grads
}
// endregion: clip

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn run(mut optim: ModuleOptimizer, lr: f64, clip: bool) -> Value {
    let mut lin = make_linear(&Device::flex().autodiff());
    let mut out = Map::new();
    for t in 1..=STEPS {
        let mut grads = make_grads(&lin, t);
        if clip {
            grads = clip_grad_norm(&lin, grads, 1.0);
        }
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

// region: check
/// Compare a config, as it serialises itself, with the values PyTorch prints for
/// `optimizer.defaults`. f32 fields hold the nearest f32, hence the relative 1e-6.
fn check_against_torch(config: &Value, torch: &[(&str, f64)]) -> Value {
    for &(field, want) in torch {
        let got = config[field].as_f64().unwrap_or_else(|| panic!("{field}: {}", config[field]));
        assert!((got - want).abs() <= 1e-6 * want.abs(), "{field}: burn {got}, PyTorch {want}");
    }
    json!(torch.iter().map(|(f, _)| *f).collect::<Vec<_>>())
}
// endregion: check

fn main() {
    // region: runs
    // Every hyper-parameter written out, with PyTorch's defaults.
    let momentum = MomentumConfig::new().with_momentum(0.9).with_dampening(0.0).with_nesterov(false);
    let sgd_momentum = SgdConfig::new().with_momentum(Some(momentum.clone()));
    let adam = AdamConfig::new().with_beta_1(0.9).with_beta_2(0.999).with_epsilon(1e-8);
    let adamw = AdamWConfig::new()
        .with_beta_1(0.9)
        .with_beta_2(0.999)
        .with_epsilon(1e-8)
        .with_weight_decay(1e-2);
    let rmsprop = RmsPropConfig::new()
        .with_alpha(0.99)
        .with_momentum(0.0)
        .with_epsilon(1e-8)
        .with_centered(false);

    let mut params = Map::new();
    params.insert("sgd".into(), run(SgdConfig::new().init(), 1e-3, false));
    params.insert("sgd_momentum".into(), run(sgd_momentum.init(), 1e-3, false));
    params.insert("adam".into(), run(adam.init(), 1e-3, false));
    params.insert("adamw".into(), run(adamw.init(), 1e-3, false));
    params.insert("rmsprop".into(), run(rmsprop.init(), 1e-2, false));
    // No clipping in the config: clip_grad_norm above, then a plain step.
    params.insert("sgd_clip".into(), run(SgdConfig::new().init(), 1e-3, true));
    // endregion: runs

    let configs = json!({
        "MomentumConfig": serde_json::to_value(&momentum).unwrap(),
        "AdamConfig": serde_json::to_value(&adam).unwrap(),
        "AdamWConfig": serde_json::to_value(&adamw).unwrap(),
        "RmsPropConfig": serde_json::to_value(&rmsprop).unwrap(),
    });

    // region: check_call
    let checks = json!({
        "MomentumConfig": check_against_torch(
            &configs["MomentumConfig"],
            &[("momentum", 0.9), ("dampening", 0.0)],
        ),
        "AdamConfig": check_against_torch(
            &configs["AdamConfig"],
            &[("beta_1", 0.9), ("beta_2", 0.999), ("epsilon", 1e-8)],
        ),
        "AdamWConfig": check_against_torch(
            &configs["AdamWConfig"],
            &[("beta_1", 0.9), ("beta_2", 0.999), ("epsilon", 1e-8), ("weight_decay", 1e-2)],
        ),
        "RmsPropConfig": check_against_torch(
            &configs["RmsPropConfig"],
            &[("alpha", 0.99), ("momentum", 0.0), ("epsilon", 1e-8)],
        ),
    });
    // endregion: check_call

    // The same check on the config the naive port used: it must fail.
    std::panic::set_hook(Box::new(|_| {}));
    let naive = serde_json::to_value(RmsPropConfig::new()).unwrap();
    let naive_check = std::panic::catch_unwind(|| {
        check_against_torch(&naive, &[("alpha", 0.99), ("momentum", 0.0), ("epsilon", 1e-8)])
    });
    let _ = std::panic::take_hook();
    let naive_check = match naive_check {
        Ok(_) => "passed".to_string(),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
    };

    let out = json!({"configs": configs, "checks_passed": checks, "naive_rmsprop_check": naive_check, "params": params});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
