//! (c) batchnorm.py's "right after training" habits ported as is: read the statistics,
//! save a checkpoint, evaluate in place (`freeze()`, on the training device; or an input
//! on the plain device).
//! All three see the statistics one update behind.
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

fn vec<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

fn nums(v: &[f32]) -> Value {
    json!(v.iter().copied().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let train: Vec<Tensor<2>> = (0..STEPS).map(|t| batch(t, &device)).collect();

    // region: stale
    let model = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device);
    for x in &train {
        let _ = model.forward(x.clone());
    }
    let read = (model.running_mean.value(), model.running_var.value()); // log them
    let record = model.clone().into_record(); // the checkpoint
    let restored = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&Device::flex())
        .load_record(record);
    let restored_out = restored.forward(batch(STEPS, &Device::flex()));
    let frozen = model.clone().freeze(); // training off, still on the autodiff device
    let eval_out = frozen.forward(batch(STEPS, &device));
    // endregion: stale
    // Another way into the inference path: an input on the plain device.
    let plain_out = vec(model.forward(batch(STEPS, &Device::flex())));

    let (read_mean, read_var) = (vec(read.0), vec(read.1));
    let restored_out = vec(restored_out);
    let eval_out = vec(eval_out);
    // region: check_stale
    // (c) The checkpoint must hold the statistics that valid() sees.
    let synced = model.valid(); // valid() takes in a pending update first
    let saved_is_current = vec(restored.running_mean.value()) == vec(synced.running_mean.value())
        && vec(restored.running_var.value()) == vec(synced.running_var.value());
    // endregion: check_stale
    // The same module trained on the first STEPS - 1 batches only.
    let shorter = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device);
    for x in &train[..STEPS - 1] {
        let _ = shorter.forward(x.clone());
    }
    let shorter = shorter.valid();
    let synced_mean = vec(synced.running_mean.value());
    let synced_var = vec(synced.running_var.value());
    let synced_out = vec(synced.forward(batch(STEPS, &Device::flex())));

    let out = json!({
        "config": {"batch": N, "channels": C, "steps": STEPS, "momentum": MOMENTUM, "epsilon": EPS},
        "read": {"running_mean": nums(&read_mean), "running_var": nums(&read_var)},
        "checkpoint": {
            "running_mean": nums(&vec(restored.running_mean.value())),
            "running_var": nums(&vec(restored.running_var.value())),
            "out": nums(&restored_out),
        },
        "eval_in_place": {"out": nums(&eval_out)},
        // What valid() sees afterwards: the last update taken in.
        "synced": {"running_mean": nums(&synced_mean), "running_var": nums(&synced_var),
                   "out": nums(&synced_out)},
        "same": {
            "read_is_checkpoint": read_mean == vec(restored.running_mean.value())
                && read_var == vec(restored.running_var.value()),
            "eval_is_checkpoint": eval_out == restored_out,
            "read_is_synced": read_mean == synced_mean,
            "read_is_one_step_fewer": read_mean == vec(shorter.running_mean.value())
                && read_var == vec(shorter.running_var.value()),
            "eval_is_synced": eval_out == synced_out,
            "plain_input_is_checkpoint": plain_out == restored_out,
        },
        "check": {"saved_is_current": saved_is_current},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
