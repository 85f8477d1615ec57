//! LinearConfig::new(256, 4) with LinearLayout::Row and ::Col: the largest |w| each draws, next
//! to the two bounds 1/√d_input and 1/√d_output. LinearConfig::init passes d_output as fan_in
//! for Col. The "row" part has the same structure as experiments/module/init_col.py.
use burn::nn::{Initializer, LinearConfig, LinearLayout};
use burn::prelude::*;
use serde_json::{json, Value};

const D_IN: usize = 256;
const D_OUT: usize = 4;

/// The KaimingUniform bound Initializer::init_tensor computes: √3 · gain · 1/√fan_in.
fn kaiming_bound(config: &LinearConfig, fan_in: usize) -> f64 {
    let Initializer::KaimingUniform { gain, fan_out_only } = config.initializer else {
        panic!("not the default: {:?}", config.initializer)
    };
    assert!(!fan_out_only);
    3.0f64.sqrt() * gain * (1.0 / (fan_in as f64).sqrt())
}

// region: draw
fn draw(layout: LinearLayout, device: &Device) -> (f32, f32, [usize; 2]) {
    device.seed(0);
    let lin = LinearConfig::new(D_IN, D_OUT).with_layout(layout).init(device);
    let w = lin.weight.val(); // forward's view: [d_input, d_output] for both layouts
    let w_max: f32 = w.clone().abs().max().into_scalar();
    let b_max: f32 = lin.bias.as_ref().unwrap().val().abs().max().into_scalar();
    (w_max, b_max, w.dims())
}
// endregion: draw

fn main() {
    let device = Device::flex();
    let config = LinearConfig::new(D_IN, D_OUT);
    let bound_in = kaiming_bound(&config, D_IN); // fan_in = d_input
    let bound_out = kaiming_bound(&config, D_OUT); // fan_in = d_output

    let side = |layout: LinearLayout| -> Value {
        let (w_max, b_max, dims) = draw(layout, &device);
        let (w, b) = (f64::from(w_max), f64::from(b_max));
        json!({
            "bound": bound_in,
            "weight_max_abs": w,
            "bias_max_abs": b,
            "weight_within_bound": w <= bound_in,
            "bias_within_bound": b <= bound_in,
            "weight_within_out_bound": w <= bound_out,
            "weight_max_over_bound": w / bound_in,
            "weight_shape": dims,
        })
    };
    let out = json!({
        "row": side(LinearLayout::Row),
        "col": side(LinearLayout::Col),
        "inv_sqrt_in": 1.0 / (D_IN as f64).sqrt(),
        "inv_sqrt_out": 1.0 / (D_OUT as f64).sqrt(),
        "bound_out": bound_out,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
