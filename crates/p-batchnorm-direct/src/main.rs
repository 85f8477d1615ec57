//! batchnorm.py's three habits, ported so that burn's inference matches PyTorch's:
//! (a) PyTorch's unbiased running variance, by a training forward built on batch_norm_train
//! (one update per step, any rank), (b) a snapshot with `valid()` instead of `clone()`,
//! (c) `valid()` before reading, saving or evaluating the trained model.
use burn::nn::{BatchNorm, BatchNormConfig};
use burn::tensor::module::batch_norm_train;
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
/// A training forward for any input [N, C, ...] that updates the running statistics the way
/// PyTorch does: once per step, with the unbiased variance. It calls the same function as
/// BatchNorm's own training path, batch_norm_train, which returns the batch mean and the biased
/// variance (divided by n) it normalised with; PyTorch's running_var wants n / (n - 1) of it.
fn forward_train<const D: usize>(bn: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    if !(x.device().is_autodiff() && bn.training.is_enabled()) {
        return bn.forward(x); // inference path: nothing to update
    }
    let n = (x.shape().num_elements() / x.dims()[1]) as f64; // elements per channel
    let out = batch_norm_train(x, bn.gamma.val(), bn.beta.val(), bn.epsilon);
    let m = bn.momentum;
    let mean = bn.running_mean.value_sync().mul_scalar(1.0 - m) + out.mean.mul_scalar(m);
    let var = bn.running_var.value_sync().mul_scalar(1.0 - m)
        + out.variance.mul_scalar(m * n / (n - 1.0));
    bn.running_mean.update(mean.detach());
    bn.running_var.update(var.detach());
    out.output
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

    // The same step on an [N, C, L] input: the variance is over dims 0 and 2, n = N·L.
    let l = 5;
    let x3: Vec<f32> = (0..N * C * l).map(|i| ((0.7 * (i + 1) as f64).sin() * 2.0) as f32).collect();
    // PyTorch's update by hand, in f64: unbiased variance of channel c over (b, l).
    let expected3: Vec<f32> = (0..C)
        .map(|c| {
            let v: Vec<f64> = (0..N)
                .flat_map(|b| (0..l).map(move |k| (b * C + c) * l + k))
                .map(|i| f64::from(x3[i]))
                .collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            let unbiased = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
            ((1.0 - MOMENTUM) + MOMENTUM * unbiased) as f32
        })
        .collect();
    let x3 = Tensor::<3>::from_data(TensorData::new(x3, [N, C, l]), &device);
    let probe3 = new_bn(&device);
    let _ = forward_train(&probe3, x3);
    let got3 = vec(probe3.valid().running_var.value());
    let var_step_err_ncl = got3.iter().zip(&expected3).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(var_step_err_ncl < 1e-6, "[N, C, L] running_var is not PyTorch's: {var_step_err_ncl}");

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
            "var_step_err_ncl": f64::from(var_step_err_ncl),
            "ncl_shape": [N, C, l],
            "snapshot_unchanged": snapshot_unchanged,
            "saved_is_current": saved_is_current,
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
