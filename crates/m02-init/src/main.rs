//! LinearConfig::new(256, 64)'s default initialisation: the bound from the source, and the draws
//! within it. Prints the same JSON structure as experiments/module/init.py.
use burn::nn::{Initializer, LinearConfig};
use burn::prelude::*;
use serde_json::json;

const D_IN: usize = 256;
const D_OUT: usize = 64;

fn main() {
    let device = Device::flex();
    let config = LinearConfig::new(D_IN, D_OUT);
    // region: bound
    // The default initializer, and the bound Initializer::init_tensor computes from it:
    // a = √3 · gain · 1/√fan_in, for the weight and (same fan_in) for the bias.
    let Initializer::KaimingUniform { gain, fan_out_only } = config.initializer else {
        panic!("not the default: {:?}", config.initializer)
    };
    assert!(!fan_out_only);
    let bound = 3.0f64.sqrt() * gain * (1.0 / (D_IN as f64).sqrt());
    // endregion: bound

    // region: draw
    device.seed(0);
    let lin = config.init(&device);
    let w_max: f32 = lin.weight.val().abs().max().into_scalar();
    let b_max: f32 = lin.bias.as_ref().unwrap().val().abs().max().into_scalar();
    // endregion: draw

    let out = json!({
        "gain": gain,
        "weight_bound": bound,
        "bias_bound": bound,
        "weight_within_bound": f64::from(w_max) <= bound,
        "bias_within_bound": f64::from(b_max) <= bound,
        "weight_max_abs": f64::from(w_max),
        "bias_max_abs": f64::from(b_max),
        "initializer": format!("{:?}", config.initializer),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
