//! cap-cnn's checkpoint on two devices of one build: Device::flex() and burn's wgpu backend
//! pinned to Vulkan (on this machine Mesa's lavapipe, Vulkan on the CPU). The same cnn.bpk,
//! the same 200 test images.
//!
//! The unchanged model is run on Vulkan in a child process (this program, argument
//! `unchanged`): on lavapipe its Linear layers' matmul kernel takes the process down (see
//! `unchanged_on_vulkan`). The comparison then runs the model with a Linear that needs no
//! matmul kernel (`linear_without_matmul`) on Vulkan, and the plain model on flex.
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
    Relu,
};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use burn::tensor::wgpu::WgpuBackend;
use burn::tensor::DeviceKind;
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-cnn/data");
const N_TRAIN: usize = 1000;
const N_TEST: usize = 200;
// Measured (build_outputs/cap-cnn-wgpu, max_abs_diff): 1.4e-6 over the 2000 log-probabilities,
// all of it from summing the Linear layers' products in another order (the matmul-free Linear
// gives the same difference on flex alone). 1e-5 is seven times that and still a thousand
// times below the smallest gap between a test image's top two classes (smallest_top2_margin,
// 1.1e-2), so no prediction can flip within it; a wrong kernel or a lost BatchNorm statistic
// moves log-probabilities by 1e-2 and more.
const TOL: f64 = 1e-5;

// The model, as in cap-cnn and cap-cnn-infer (a checkpoint holds parameters, not code).
#[derive(Module, Debug)]
struct Net {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    pool: MaxPool2d,
    dropout: Dropout,
    fc1: Linear,
    fc2: Linear,
    relu: Relu,
    #[module(skip)]
    no_matmul: bool, // true: the Linear layers through linear_without_matmul
}

impl Net {
    fn new(dropout: f64, device: &Device) -> Self {
        let conv = |i, o| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .with_bias(false)
                .init(device)
        };
        Net {
            conv1: conv(1, 8),
            bn1: BatchNormConfig::new(8).init(device),
            conv2: conv(8, 16),
            bn2: BatchNormConfig::new(16).init(device),
            pool: MaxPool2dConfig::new([2, 2]).init(),
            dropout: DropoutConfig::new(dropout).init(),
            fc1: LinearConfig::new(16 * 2 * 2, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
            no_matmul: false,
        }
    }

    fn linear(&self, l: &Linear, x: Tensor<2>) -> Tensor<2> {
        if self.no_matmul { linear_without_matmul(l, x) } else { l.forward(x) }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let x = self.pool.forward(self.relu.forward(self.bn1.forward(self.conv1.forward(x))));
        let x = self.pool.forward(self.relu.forward(self.bn2.forward(self.conv2.forward(x))));
        let x = self.dropout.forward(x.flatten::<2>(1, 3));
        let x = self.relu.forward(self.linear(&self.fc1, x));
        log_softmax(self.linear(&self.fc2, x), 1)
    }
}

// region: no_matmul
/// x·W + b without a matmul kernel: [B, in, 1] * [1, in, out], summed over `in`. An
/// elementwise product and a reduction, kernels that lavapipe compiles.
fn linear_without_matmul(l: &Linear, x: Tensor<2>) -> Tensor<2> {
    let w = l.weight.val(); // [in, out] (LinearLayout::Row, the default)
    let y = (x.unsqueeze_dim::<3>(2) * w.unsqueeze_dim::<3>(0)).sum_dim(1).squeeze_dim::<2>(1);
    match &l.bias {
        Some(b) => y + b.val().unsqueeze_dim::<2>(0),
        None => y,
    }
}
// endregion: no_matmul

/// The 200 test images, [200, 1, 8, 8] in [0, 1], and their labels.
fn test_set() -> (Vec<f32>, Vec<i64>) {
    let raw = std::fs::read(format!("{DATA}/glyphs.bin")).expect("glyphs.bin");
    let n = raw.len() / 65;
    let x = raw[N_TRAIN * 64..(N_TRAIN + N_TEST) * 64].iter().map(|&p| p as f32 / 16.0).collect();
    let y = raw[n * 64 + N_TRAIN..n * 64 + N_TRAIN + N_TEST].iter().map(|&l| l as i64).collect();
    (x, y)
}

/// cap-cnn trains the model and writes cnn.bpk into its current directory (this one).
fn train_checkpoint() -> Value {
    let exe = std::env::current_exe().unwrap().with_file_name("cap-cnn");
    let out = Command::new(&exe).output().expect("run cap-cnn");
    assert!(out.status.success(), "cap-cnn: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cap-cnn's JSON")
}

// region: run
/// The checkpoint on `device`: log-probabilities of the test images, read back to the host.
fn run(device: &Device, images: &[f32], no_matmul: bool) -> Vec<f32> {
    let model = Net { no_matmul, ..Net::new(0.25, device).load_file("cnn.bpk") };
    let x = Tensor::<4>::from_data(TensorData::new(images.to_vec(), [N_TEST, 1, 8, 8]), device);
    model.forward(x).into_data().try_to_vec::<f32>().unwrap()
}
// endregion: run

/// The unchanged model on Vulkan (`unchanged`), or one [1, 1] × [1, 1] matmul (`matmul`),
/// in a child process: how it ends.
fn on_vulkan(what: &str) -> Value {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(&exe).arg(what).output().expect("run the child");
    match (out.status.code(), out.status.signal()) {
        (Some(0), _) => {
            let v: Value = serde_json::from_slice(&out.stdout).expect("the child's JSON");
            json!({"ended": "ok", "log_probs": v["log_probs"]})
        }
        (Some(code), _) => json!({"ended": "exit", "code": code}),
        (None, Some(sig)) => json!({"ended": "signal", "signal": sig,
                                    "sigsegv": sig == 11}),
        _ => json!({"ended": "unknown"}),
    }
}

fn argmax_rows(log_probs: &[f32]) -> Vec<i64> {
    log_probs
        .chunks(10)
        .map(|row| {
            let mut best = 0;
            for (j, &v) in row.iter().enumerate() {
                if v > row[best] {
                    best = j;
                }
            }
            best as i64
        })
        .collect()
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (f64::from(*x) - f64::from(*y)).abs()).fold(0.0, f64::max)
}

/// The smallest gap between the top two classes of a row: how far a prediction is from flipping.
fn smallest_margin(log_probs: &[f32]) -> f64 {
    log_probs
        .chunks(10)
        .map(|row| {
            let mut v = row.to_vec();
            v.sort_by(|a, b| b.partial_cmp(a).unwrap());
            f64::from(v[0] - v[1])
        })
        .fold(f64::MAX, f64::min)
}

fn f64s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

fn main() {
    let (images, labels) = test_set();
    if std::env::args().nth(1).as_deref() == Some("unchanged") {
        // region: unchanged
        let log_probs = run(&Device::vulkan(DeviceKind::DefaultDevice), &images, false);
        // endregion: unchanged
        println!("{}", json!({"log_probs": f64s(&log_probs)}));
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("matmul") {
        // region: matmul
        let vulkan = Device::vulkan(DeviceKind::DefaultDevice);
        let a = Tensor::<2>::from_data([[2.0f32]], &vulkan);
        let product = a.clone().matmul(a).into_data().try_to_vec::<f32>().unwrap();
        // endregion: matmul
        println!("{}", json!({"log_probs": f64s(&product)}));
        return;
    }

    // region: default
    // Both backends are compiled in: which one does Device::default() give?
    let default = Device::default();
    // endregion: default
    let trained = train_checkpoint();

    // region: devices
    let flex = Device::flex();
    // Open the Vulkan device explicitly, to read the adapter wgpu chose.
    let (_, setup) = Device::wgpu_options()
        .device_kind(DeviceKind::DefaultDevice)
        .graphics_api(WgpuBackend::Vulkan)
        .init_with_setup()
        .expect("no Vulkan adapter");
    let info = setup.adapter.get_info();
    let vulkan = Device::vulkan(DeviceKind::DefaultDevice);
    // endregion: devices
    // The API the unpinned wgpu device (the one Device::default() names) settles on.
    let (_, auto_setup) = Device::wgpu_options().init_with_setup().expect("no wgpu adapter");
    let auto_info = auto_setup.adapter.get_info();

    let unchanged = on_vulkan("unchanged");
    let matmul = on_vulkan("matmul");
    // region: compare
    let on_flex = run(&flex, &images, false);
    let on_vulkan = run(&vulkan, &images, true);
    // endregion: compare
    let flex_no_matmul = run(&flex, &images, true);
    let (pred_flex, pred_vulkan) = (argmax_rows(&on_flex), argmax_rows(&on_vulkan));
    let max_diff = max_abs_diff(&on_flex, &on_vulkan);
    let same = pred_flex == pred_vulkan;
    let correct = |p: &[i64]| p.iter().zip(&labels).filter(|(a, b)| a == b).count();
    let cap_cnn: Vec<i64> = serde_json::from_value(trained["predictions"].clone()).unwrap();

    let mut unchanged_out = unchanged.clone();
    let mut unchanged_same = Value::Null;
    if let Some(lp) = unchanged.get("log_probs") {
        // Where the matmul kernel does compile: the unchanged model is compared too.
        let lp: Vec<f32> = serde_json::from_value::<Vec<f64>>(lp.clone())
            .unwrap()
            .iter()
            .map(|&x| x as f32)
            .collect();
        let d = max_abs_diff(&on_flex, &lp);
        unchanged_same = json!(argmax_rows(&lp) == pred_flex && d <= TOL);
        unchanged_out = json!({"ended": "ok", "max_abs_diff_vs_flex": d});
    }

    println!("{}", serde_json::to_string_pretty(&json!({
        "default_device": format!("{default:?}"),
        "default_is_wgpu_auto": default == Device::wgpu(DeviceKind::DefaultDevice),
        "default_is_vulkan": default == vulkan,
        "default_is_flex": default == flex,
        "auto_api": format!("{:?}", auto_info.backend),
        "auto_adapter": auto_info.name,
        "flex_device": format!("{flex:?}"),
        "vulkan_device": format!("{vulkan:?}"),
        "adapter": {
            "name": info.name,
            "driver": info.driver,
            "driver_info": info.driver_info,
            "backend": format!("{:?}", info.backend),
            "device_type": format!("{:?}", info.device_type),
        },
        "unchanged_on_vulkan": unchanged_out,
        "matmul_1x1_on_vulkan": matmul,
        "unchanged_within_tol": unchanged_same,
        "n_test": N_TEST,
        "predictions": {"flex": pred_flex, "vulkan": pred_vulkan},
        "predictions_equal": same,
        "flex_equals_cap_cnn_infer": pred_flex == cap_cnn,
        "correct": {"flex": correct(&pred_flex), "vulkan": correct(&pred_vulkan)},
        "max_abs_diff": max_diff,
        // How much of it the matmul-free Linear makes alone, both on flex; and the two devices
        // running the very same operations.
        "max_abs_diff_flex_no_matmul": max_abs_diff(&on_flex, &flex_no_matmul),
        "max_abs_diff_same_ops": max_abs_diff(&flex_no_matmul, &on_vulkan),
        "tol": TOL,
        "smallest_top2_margin": smallest_margin(&on_flex),
        "log_probs_first2": {"flex": f64s(&on_flex[..20]), "vulkan": f64s(&on_vulkan[..20])},
    })).unwrap());
    assert!(same, "flex and wgpu predict differently");
    assert!(max_diff <= TOL, "flex and wgpu differ by {max_diff:e}, over the tolerance {TOL:e}");
}
