//! kldiv.py ported with Reduction::Auto, the Reduction a port reaches for when PyTorch's code
//! leaves the reduction at its default. For KLDivLoss burn reads Auto as BatchMean.
use burn::nn::loss::{KLDivLossConfig, Reduction};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, softmax};
use serde_json::{json, Value};

const B: usize = 4;
const C: usize = 5;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let logits = Tensor::<2>::from_data(TensorData::new(seq(B * C, f64::sin, 2.0), [B, C]), &device)
        .require_grad();
    let target = softmax(
        Tensor::<2>::from_data(TensorData::new(seq(B * C, f64::cos, 1.5), [B, C]), &device),
        1,
    );

    // region: loss
    let kl = KLDivLossConfig::new().init(); // log_target: false, as in PyTorch
    let loss = kl.forward(log_softmax(logits.clone(), 1), target.clone(), Reduction::Auto); // Auto: what a port writes for "the default"
    let value = loss.clone().into_scalar::<f32>();
    let grads = loss.backward();
    // endregion: loss
    let grad = logits.grad(&grads).unwrap();

    // Every reduction on the same numbers, without autodiff.
    let log_p = log_softmax(logits.inner(), 1);
    let by = |r: Reduction| f64::from(kl.forward(log_p.clone(), target.clone().inner(), r).into_scalar::<f32>());
    let out = json!({
        "batch": B,
        "classes": C,
        "loss": f64::from(value),
        "grad": nums(grad),
        "by_reduction": {
            "Auto": by(Reduction::Auto),
            "Mean": by(Reduction::Mean),
            "BatchMean": by(Reduction::BatchMean),
            "Sum": by(Reduction::Sum),
        },
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
