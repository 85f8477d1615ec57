//! A1's forward pass only (4→8→3 MLP, ReLU) on fixed weights, on Device::flex():
//! no autodiff, no training. Prints the logits as JSON, like experiments/why/infer.py.
//! experiments/why/measure.py runs this release binary to time it.
use burn::module::Param;
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

/// A1's weights: element k (1-based, [out, in]) is 0.5·f(k), f64 rounded to f32 once;
/// burn's Linear stores [in, out], so transpose. Bias element o is 0.01·o.
fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let w: Vec<f32> = (0..out * inp).map(|k| (0.5 * f((k + 1) as f64)) as f32).collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [out, inp]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

fn main() {
    // region: infer
    let device = Device::flex(); // inference: no .autodiff()
    let model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    let logits = model.fc2.forward(model.relu.forward(model.fc1.forward(x)));
    let logits: Vec<f32> = logits.into_data().try_to_vec::<f32>().unwrap();
    // endregion: infer

    let logits: Vec<f64> = logits.into_iter().map(f64::from).collect();
    let out = json!({ "logits": logits, "shape": [BATCH, OUT], "vm_hwm_kb": vm_hwm_kb() });
    println!("{out}");
}

// region: rss
/// This process's peak resident set size so far (VmHWM in /proc/self/status), in KiB.
fn vm_hwm_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}
// endregion: rss
