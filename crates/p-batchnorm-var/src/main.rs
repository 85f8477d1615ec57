//! (a) batchnorm.py's training ported as is: three training forwards on the autodiff device,
//! then `valid()` and inference. The running variance is not PyTorch's.
use burn::nn::BatchNormConfig;
use burn::prelude::*;
use serde_json::{json, Value};

const N: usize = 4;
const C: usize = 3;
const STEPS: usize = 3;
const MOMENTUM: f64 = 0.1;
const EPS: f64 = 1e-5;

/// Element (b, c) of batch t: (1 + c)·sin(1.3·(12t + 3b + c + 1)) + 0.5·c, in f64, rounded once.
fn batch(t: usize, device: &Device) -> Tensor<2> {
    let v: Vec<f32> = (0..N * C)
        .map(|i| {
            let (b, c) = ((i / C) as f64, (i % C) as f64);
            ((1.0 + c) * (1.3 * (12.0 * t as f64 + 3.0 * b + c + 1.0)).sin() + 0.5 * c) as f32
        })
        .collect();
    Tensor::<2>::from_data(TensorData::new(v, [N, C]), device)
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let train: Vec<Tensor<2>> = (0..STEPS).map(|t| batch(t, &device)).collect();
    let test = batch(STEPS, &Device::flex());

    // region: var
    let model = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device); // training flag on, autodiff device: the training path
    for x in &train {
        let _ = model.forward(x.clone()); // updates running_mean and running_var
    }
    let model = model.valid(); // the inference copy, on Device::flex()
    let out = model.forward(test);
    // endregion: var

    // The same training, step by step (value_sync: the statistics as the next step reads them).
    let stepwise = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device);
    let (mut means, mut vars) = (vec![], vec![]);
    for x in &train {
        let _ = stepwise.forward(x.clone());
        means.push(nums(stepwise.running_mean.value_sync()));
        vars.push(nums(stepwise.running_var.value_sync()));
    }

    // The check of p-batchnorm-fix, without its assert: one training step from running_var = 1
    // against PyTorch's (1 - momentum) * 1 + momentum * unbiased batch variance.
    let probe = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device);
    let _ = probe.forward(batch(0, &device));
    let expected = batch(0, &Device::flex())
        .var(0)
        .squeeze_dim::<1>(0)
        .mul_scalar(MOMENTUM)
        .add_scalar(1.0 - MOMENTUM);
    let got = probe.valid().running_var.value();
    let var_step_err = (got.clone() - expected).abs().max().into_scalar::<f32>();
    // The same step against the biased variance instead.
    let biased = batch(0, &Device::flex())
        .var_bias(0)
        .squeeze_dim::<1>(0)
        .mul_scalar(MOMENTUM)
        .add_scalar(1.0 - MOMENTUM);
    let biased_err = (got - biased).abs().max().into_scalar::<f32>();

    let out = json!({
        "config": {"batch": N, "channels": C, "steps": STEPS, "momentum": MOMENTUM, "epsilon": EPS},
        "trained": {
            "running_mean": nums(model.running_mean.value()),
            "running_var": nums(model.running_var.value()),
            "out": nums(out),
        },
        "history": {"running_mean": means, "running_var": vars},
        "check": {"var_step_err": f64::from(var_step_err)},
        "step1_matches_biased": biased_err < 1e-6,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
