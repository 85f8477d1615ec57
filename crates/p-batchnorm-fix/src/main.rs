//! batchnorm.py's three habits, ported so that burn's inference matches PyTorch's:
//! (a) PyTorch's unbiased running variance, (b) a snapshot with `valid()` instead of `clone()`,
//! (c) `valid()` before reading, saving or evaluating the trained model.
use burn::nn::{BatchNorm, BatchNormConfig};
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

fn vec<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    json!(vec(t).into_iter().map(f64::from).collect::<Vec<_>>())
}

fn new_bn(device: &Device) -> BatchNorm {
    BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(device)
}

// region: forward_train
/// A training forward on an [N, C] input that updates running_var the way PyTorch does.
/// burn feeds the biased batch variance (divided by n) into running_var; PyTorch feeds the
/// unbiased one (divided by n - 1). They differ by var/(n - 1): add momentum times that.
fn forward_train(bn: &BatchNorm, x: Tensor<2>) -> Tensor<2> {
    let n = x.dims()[0] as f64;
    let var = x.clone().detach().var_bias(0).squeeze_dim::<1>(0); // [C]
    let out = bn.forward(x); // burn's own update, with the biased variance
    let running_var = bn.running_var.value_sync(); // takes that update in
    bn.running_var.update(running_var + var.mul_scalar(bn.momentum / (n - 1.0)));
    out
}
// endregion: forward_train

fn main() {
    let device = Device::flex().autodiff();
    let train: Vec<Tensor<2>> = (0..STEPS).map(|t| batch(t, &device)).collect();
    let test = batch(STEPS, &Device::flex());

    // (a) Train with PyTorch's running variance, then evaluate.
    // region: var
    let model = new_bn(&device);
    for x in &train {
        let _ = forward_train(&model, x.clone());
    }
    let model = model.valid();
    let out = model.forward(test.clone());
    // endregion: var
    let trained = json!({
        "running_mean": nums(model.running_mean.value()),
        "running_var": nums(model.running_var.value()),
        "out": nums(out),
    });

    // The same training, step by step.
    let stepwise = new_bn(&device);
    let (mut means, mut vars) = (vec![], vec![]);
    for x in &train {
        let _ = forward_train(&stepwise, x.clone());
        means.push(nums(stepwise.running_mean.value_sync()));
        vars.push(nums(stepwise.running_var.value_sync()));
    }

    // (b) The untrained copy, taken with valid().
    // region: clone
    let model = new_bn(&device);
    let reference = model.valid(); // its own running statistics
    // endregion: clone
    // region: check_clone
    // (b) A snapshot must not move while the model trains on: compare before and after.
    let before = (vec(reference.running_mean.value()), vec(reference.running_var.value()));
    // endregion: check_clone
    // region: clone
    for x in &train {
        let _ = forward_train(&model, x.clone());
    }
    let reference_out = reference.forward(test.clone());
    // endregion: clone
    // region: check_clone
    // ... the training loop ...
    let after = (vec(reference.running_mean.value()), vec(reference.running_var.value()));
    let snapshot_unchanged = before == after;
    // endregion: check_clone

    // (c) Right after training: valid() first, then read, save, evaluate.
    // region: stale
    let model = new_bn(&device);
    for x in &train {
        let _ = forward_train(&model, x.clone());
    }
    let model = model.valid(); // takes in the last update; the inference copy
    let read = (model.running_mean.value(), model.running_var.value()); // log them
    let record = model.clone().into_record(); // the checkpoint
    let restored = new_bn(&Device::flex()).load_record(record);
    let restored_out = restored.forward(test.clone());
    let eval_out = model.forward(test.clone()); // evaluate the valid() copy
    // endregion: stale
    // region: check_stale
    // (c) The checkpoint must hold the statistics that valid() sees.
    let synced = model.valid(); // valid() takes in a pending update first
    let saved_is_current = vec(restored.running_mean.value()) == vec(synced.running_mean.value())
        && vec(restored.running_var.value()) == vec(synced.running_var.value());
    // endregion: check_stale

    // region: check_var
    // (a) One training step from running_var = 1 must give PyTorch's update:
    // (1 - momentum) * 1 + momentum * unbiased batch variance.
    let probe = new_bn(&device);
    let x0 = batch(0, &Device::flex());
    let _ = forward_train(&probe, batch(0, &device));
    let expected = x0.var(0).squeeze_dim::<1>(0).mul_scalar(MOMENTUM).add_scalar(1.0 - MOMENTUM);
    let got = probe.valid().running_var.value();
    let var_step_err = (got - expected).abs().max().into_scalar::<f32>();
    assert!(var_step_err < 1e-6, "running_var is not PyTorch's: {var_step_err}");
    // endregion: check_var

    let out = json!({
        "config": {"batch": N, "channels": C, "steps": STEPS, "momentum": MOMENTUM, "epsilon": EPS},
        "trained": trained,
        "history": {"running_mean": means, "running_var": vars},
        "reference": {
            "running_mean": nums(reference.running_mean.value()),
            "running_var": nums(reference.running_var.value()),
            "out": nums(reference_out),
        },
        "read": {"running_mean": nums(read.0), "running_var": nums(read.1)},
        "checkpoint": {
            "running_mean": nums(restored.running_mean.value()),
            "running_var": nums(restored.running_var.value()),
            "out": nums(restored_out),
        },
        "eval_in_place": {"out": nums(eval_out)},
        "check": {
            "var_step_err": f64::from(var_step_err),
            "snapshot_unchanged": snapshot_unchanged,
            "saved_is_current": saved_is_current,
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
