//! Cross-entropy and MSE with each reduction burn 0.22.1 offers, on fixed numbers.
//! Prints the same JSON structure as experiments/loss/loss.py.
use burn::nn::loss::{CrossEntropyLossConfig, MseLoss, Reduction};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use serde_json::{json, Value};

const B: usize = 4;
const C: usize = 3;

/// Element k (1-based, row-major) is scale·f(k), computed in f64 and rounded to f32 once.
fn grid(rows: usize, cols: usize, f: fn(f64) -> f64, scale: f64, device: &Device) -> Tensor<2> {
    let v: Vec<f32> = (0..rows * cols)
        .map(|k| (scale * f((k + 1) as f64)) as f32)
        .collect();
    Tensor::<2>::from_data(TensorData::new(v, [rows, cols]), device)
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

/// The message of a panic, caught instead of ending the program.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let res = std::panic::catch_unwind(f);
    std::panic::set_hook(hook);
    res.err().map(|e| match e.downcast::<String>() {
        Ok(s) => *s,
        Err(e) => e.downcast_ref::<&str>().map(|s| s.to_string()).unwrap_or_default(),
    })
}

fn main() {
    let device = Device::flex();
    let logits = grid(B, C, f64::sin, 2.0, &device);
    let y = Tensor::<1, Int>::from_data(TensorData::new(vec![2i64, 0, 1, 2], [B]), &device);
    let pred = grid(B, C, f64::sin, 0.5, &device);
    let target = grid(B, C, f64::cos, 0.5, &device);

    // region: ce
    let ce = CrossEntropyLossConfig::new().init(&device);
    let ce_mean = ce.forward(logits.clone(), y.clone()); // always the mean
    // No reduction argument: per-sample losses by hand, then sum them.
    let ce_none = log_softmax(logits.clone(), 1)
        .gather(1, y.clone().reshape([B, 1]))
        .reshape([B])
        .neg();
    let ce_sum = ce_none.clone().sum();
    // endregion: ce

    // region: mse
    let mse = MseLoss::new();
    let mse_mean = mse.forward(pred.clone(), target.clone(), Reduction::Mean);
    let mse_sum = mse.forward(pred.clone(), target.clone(), Reduction::Sum);
    let mse_none = mse.forward_no_reduction(pred.clone(), target.clone());
    let mse_auto = mse.forward(pred.clone(), target.clone(), Reduction::Auto);
    let batch_mean = panic_message(|| {
        let _ = MseLoss::new().forward(pred.clone(), target.clone(), Reduction::BatchMean);
    });
    // endregion: mse

    // region: options
    let ce_smooth = CrossEntropyLossConfig::new()
        .with_smoothing(Some(0.1))
        .init(&device)
        .forward(logits.clone(), y.clone());
    let ce_weighted = CrossEntropyLossConfig::new()
        .with_weights(Some(vec![1.0, 2.0, 0.5]))
        .init(&device)
        .forward(logits.clone(), y.clone());
    // endregion: options

    let mse_auto_is_mean = mse_auto.clone().into_data() == mse_mean.clone().into_data();
    let out = json!({
        "ce": {"mean": nums(ce_mean.clone()), "sum": nums(ce_sum), "none": nums(ce_none.clone())},
        "mse": {"mean": nums(mse_mean.clone()), "sum": nums(mse_sum), "none": nums(mse_none.clone())},
        "ce_options": {"smoothing": nums(ce_smooth), "weighted": nums(ce_weighted)},
        "shape": {
            "ce_mean": ce_mean.dims(), "ce_none": ce_none.dims(),
            "mse_mean": mse_mean.dims(), "mse_none": mse_none.dims(),
        },
        "mse_auto_is_mean": mse_auto_is_mean,
        "mse_batch_mean_panic": batch_mean,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
