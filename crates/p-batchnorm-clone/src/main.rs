//! (b) batchnorm.py's "keep a copy of the untrained model" ported with `clone()`:
//! the copy shares its running statistics with the model that goes on training.
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

fn vec1(t: Tensor<1>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let train: Vec<Tensor<2>> = (0..STEPS).map(|t| batch(t, &device)).collect();
    let test = batch(STEPS, &Device::flex());

    // region: clone
    let model = BatchNormConfig::new(C)
        .with_momentum(MOMENTUM)
        .with_epsilon(EPS)
        .init(&device);
    let reference = model.clone(); // meant as an independent copy
    // endregion: clone
    let before = (vec1(reference.running_mean.value()), vec1(reference.running_var.value()));
    // region: clone
    for x in &train {
        let _ = model.forward(x.clone());
    }
    let reference = reference.valid();
    let reference_out = reference.forward(test);
    // endregion: clone

    let reference_mean = vec1(reference.running_mean.value());
    let reference_var = vec1(reference.running_var.value());
    let trained = model.valid();
    let out = json!({
        "config": {"batch": N, "channels": C, "steps": STEPS, "momentum": MOMENTUM, "epsilon": EPS},
        "reference": {
            "running_mean": nums(reference.running_mean.value()),
            "running_var": nums(reference.running_var.value()),
            "out": nums(reference_out),
        },
        // The copy holds the trained model's statistics, bit for bit.
        "reference_is_trained": reference_mean == vec1(trained.running_mean.value())
            && reference_var == vec1(trained.running_var.value()),
        // The check of p-batchnorm-fix: the copy's statistics before and after the training.
        "check": {"snapshot_unchanged": before == (reference_mean.clone(), reference_var.clone())},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
