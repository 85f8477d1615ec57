//! interpolate.py ported with Interpolate2dConfig: scale factor 2, Linear mode, and
//! align_corners left at its default, as the PyTorch code leaves it. burn's default is true.
use burn::nn::interpolate::{Interpolate2d, Interpolate2dConfig, InterpolateMode};
use burn::prelude::*;
use serde_json::{json, Value};

const N: usize = 1;
const C: usize = 2;
const H: usize = 3;
const W: usize = 4;

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// Element k (row-major, from 0) is 0.5 * sin(k + 1), computed in f64, stored as f32.
fn feature_map(device: &Device) -> Tensor<4> {
    let v: Vec<f32> = (0..N * C * H * W).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    Tensor::from_data(TensorData::new(v, [N, C, H, W]), device)
}

/// A [1, 1, H, W] map holding each pixel's column (or row) index.
fn ramp(by_row: bool, device: &Device) -> Tensor<4> {
    let v: Vec<f32> = (0..H * W).map(|k| if by_row { k / W } else { k % W } as f32).collect();
    Tensor::from_data(TensorData::new(v, [1, 1, H, W]), device)
}

fn corners(t: Tensor<4>) -> Value {
    let [_, _, h, w] = t.dims();
    let v = flat(t);
    json!([v[0], v[w - 1], v[(h - 1) * w], v[h * w - 1]])
}

// region: check
/// True when `up` samples pixel centres, as PyTorch's align_corners=False does: a row
/// holding 0, 1, .., w-1 must come out as clamp((i + 0.5) * w / out - 0.5, 0, w - 1).
/// Corner values cannot tell the two conventions apart; the samples in between can.
fn samples_pixel_centres(up: &Interpolate2d, w: usize, device: &Device) -> bool {
    let row: Vec<f32> = (0..w).map(|i| i as f32).collect();
    let got = up.forward(Tensor::from_data(TensorData::new(row, [1, 1, 1, w]), device));
    let out = got.dims()[3];
    let got: Vec<f32> = got.into_data().try_to_vec::<f32>().unwrap();
    got[..out].iter().enumerate().all(|(i, &v)| { // first output row
        let want = ((i as f64 + 0.5) * w as f64 / out as f64 - 0.5).clamp(0.0, (w - 1) as f64);
        (f64::from(v) - want).abs() < 1e-5
    })
}
// endregion: check

fn main() {
    let device = Device::flex().autodiff();
    let x = feature_map(&device).require_grad();

    // region: up
    let config = Interpolate2dConfig::new()
        .with_scale_factor(Some([2.0, 2.0])) // scale_factor=2
        .with_mode(InterpolateMode::Linear); // mode='bilinear'; align_corners not written
    let up: Interpolate2d = config.clone().init();
    let y = up.forward(x.clone());
    let grads = y.clone().sum().backward(); // each input pixel's total weight in the output
    // endregion: up
    let grad = x.grad(&grads).unwrap();

    // The output_size form of the same layer, to show it behaves the same.
    let sized = config.clone().with_scale_factor(None).with_output_size(Some([2 * H, 2 * W])).init();
    let y_sized = sized.forward(x.clone());
    let coord = |by_row: bool| flat(up.forward(ramp(by_row, &device)));
    let (cw, ch) = (coord(false), coord(true));
    // Cubic mode with the same align_corners setting as the Linear layer above.
    let cubic = config.clone().with_mode(InterpolateMode::Cubic).init().forward(x.clone());
    let out = json!({
        "align_corners": config.align_corners, // the value the layer runs with
        "in_shape": x.dims(),
        "x": flat(x.clone()),
        "shape": y.dims(),
        "y": flat(y.clone()),
        "grad": flat(grad),
        "coords": {"w": cw[..2 * W].to_vec(), "h": (0..2 * H).map(|r| ch[r * 2 * W]).collect::<Vec<_>>()},
        "corners": {"x": corners(x.clone()), "y": corners(y.clone())},
        "bicubic": flat(cubic),
        "output_size_form_same": flat(y_sized) == flat(y),
        "check": samples_pixel_centres(&up, W, &device), // the check on this page's layer
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
