//! SGD (momentum, Nesterov), Adam (without and with L2) and RMSprop (plain, centered with
//! momentum): three steps each from the same parameters and the same gradients, every
//! hyper-parameter set explicitly. Prints the same JSON structure as experiments/optim/steps.py.
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, RmsPropConfig, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 3;
const OUT: usize = 2;
const STEPS: usize = 3;

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

/// Step t (1-based): weight grad element k is 0.1·cos(0.7·k + t);
/// bias grad element o is 1e-6·sin(o + 1 + 2t), small next to eps on purpose.
/// The gradients are set directly, keyed by each parameter's ParamId.
fn make_grads(lin: &Linear, t: usize) -> GradientsParams {
    let device = Device::flex(); // gradients carry no autodiff graph
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
// endregion: setup

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// region: run
fn run(mut optim: ModuleOptimizer, lr: f64) -> Value {
    let mut lin = make_linear(&Device::flex().autodiff());
    let mut out = Map::new();
    for t in 1..=STEPS {
        let grads = make_grads(&lin, t);
        lin = optim.step(lr, lin, grads); // takes the module, returns the updated one
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
// endregion: run

fn main() {
    // region: sgd
    let sgd = SgdConfig::new()
        .with_momentum(Some(
            MomentumConfig::new().with_momentum(0.9).with_dampening(0.1).with_nesterov(false),
        ))
        .with_weight_decay(Some(WeightDecayConfig::new(0.01)));
    let sgd_nesterov = SgdConfig::new()
        .with_momentum(Some(
            MomentumConfig::new().with_momentum(0.9).with_dampening(0.0).with_nesterov(true),
        ))
        .with_weight_decay(None);
    // endregion: sgd
    // region: adam
    let adam = AdamConfig::new()
        .with_beta_1(0.9)
        .with_beta_2(0.999)
        .with_epsilon(1e-8)
        .with_amsgrad(false)
        .with_weight_decay(None);
    let adam_l2 = adam.clone().with_weight_decay(Some(WeightDecayConfig::new(0.01)));
    // endregion: adam
    // region: rmsprop
    let rmsprop = RmsPropConfig::new()
        .with_alpha(0.99)
        .with_epsilon(1e-8)
        .with_momentum(0.0)
        .with_centered(false)
        .with_weight_decay(None);
    let rmsprop_centered = RmsPropConfig::new()
        .with_alpha(0.99)
        .with_epsilon(1e-8)
        .with_momentum(0.9)
        .with_centered(true)
        .with_weight_decay(Some(WeightDecayConfig::new(0.01)));
    // endregion: rmsprop

    // (name, lr, the config as burn serialises it, the optimizer)
    let runs: Vec<(&str, f64, Value, ModuleOptimizer)> = vec![
        ("sgd", 0.1, serde_json::to_value(&sgd).unwrap(), sgd.init()),
        ("sgd_nesterov", 0.1, serde_json::to_value(&sgd_nesterov).unwrap(), sgd_nesterov.init()),
        ("adam", 0.01, serde_json::to_value(&adam).unwrap(), adam.init()),
        ("adam_l2", 0.01, serde_json::to_value(&adam_l2).unwrap(), adam_l2.init()),
        ("rmsprop", 0.01, serde_json::to_value(&rmsprop).unwrap(), rmsprop.init()),
        (
            "rmsprop_centered",
            0.01,
            serde_json::to_value(&rmsprop_centered).unwrap(),
            rmsprop_centered.init(),
        ),
    ];
    let (mut params, mut config) = (Map::new(), Map::new());
    for (name, lr, cfg, optim) in runs {
        config.insert(name.into(), json!({"lr_passed_to_step": lr, "config": cfg}));
        params.insert(name.into(), run(optim, lr));
    }
    let out = json!({"config": config, "params": params});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
