//! transformer_defaults.py ported argument by argument: d_model, d_ff, n_heads, n_layers go into
//! TransformerEncoderConfig::new and everything PyTorch left at its default stays at burn's.
//! burn's feed-forward activation defaults to GELU, PyTorch's to ReLU.
use burn::module::Param;
use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderInput, TransformerEncoderLayer};
use burn::nn::Linear;
use burn::prelude::*;
use serde_json::{json, Value};

/// Element k of a tensor with phase p is 0.5·sin(k + 1 + p), as in the PyTorch script.
fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

/// A Linear from PyTorch's [out, in] weight: burn stores [in, out].
fn linear(w: Tensor<2>, b: Tensor<1>) -> Linear {
    Linear { weight: Param::from_tensor(w.transpose()), bias: Some(Param::from_tensor(b)) }
}

// region: weights
/// PyTorch's parameters of one layer, moved by name: in_proj split into query/key/value,
/// linear1/linear2 → pwff.linear_inner/linear_outer, norm1/norm2 → norm_1/norm_2.
fn load_torch_layer(layer: &mut TransformerEncoderLayer, d: &Device) {
    let (w, b) = (data([12, 4], 10.0, d), data([12], 20.0, d)); // in_proj: q, k, v stacked
    let rows = |i: usize| w.clone().slice([4 * i..4 * (i + 1), 0..4]);
    let part = |i: usize| b.clone().slice([4 * i..4 * (i + 1)]);
    layer.mha.query = linear(rows(0), part(0));
    layer.mha.key = linear(rows(1), part(1));
    layer.mha.value = linear(rows(2), part(2));
    layer.mha.output = linear(data([4, 4], 30.0, d), data([4], 40.0, d));
    layer.pwff.linear_inner = linear(data([6, 4], 50.0, d), data([6], 60.0, d));
    layer.pwff.linear_outer = linear(data([4, 6], 70.0, d), data([4], 80.0, d));
    layer.norm_1.gamma = Param::from_tensor(data([4], 90.0, d));
    layer.norm_1.beta = Some(Param::from_tensor(data([4], 100.0, d)));
    layer.norm_2.gamma = Param::from_tensor(data([4], 110.0, d));
    layer.norm_2.beta = Some(Param::from_tensor(data([4], 120.0, d)));
}
// endregion: weights

fn main() {
    // The plain (non-autodiff) device: Dropout is a no-op there, as after PyTorch's eval().
    let device = Device::flex();
    let x = data([2, 3, 4], 0.0, &device) * 2.0; // [batch, seq, d_model], like batch_first=True

    // region: model
    let config = TransformerEncoderConfig::new(4, 6, 2, 1); // d_model, d_ff, n_heads, n_layers
    let mut encoder = config.init(&device);
    load_torch_layer(&mut encoder.layers[0], &device);
    let y = encoder.forward(TransformerEncoderInput::new(x));
    // endregion: model

    let out = json!({
        "activation": format!("{:?}", config.activation),
        "dropout": config.dropout,
        "norm_first": config.norm_first,
        "config": serde_json::from_str::<Value>(&config.to_string()).unwrap(),
        "module": format!("{encoder}"),
        "y": flat(y.clone()),
        "shape": y.dims(),
        "layer_activation": format!("{:?}", encoder.layers[0].pwff.activation),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
