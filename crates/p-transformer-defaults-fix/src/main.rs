//! transformer_defaults.py ported with PyTorch's defaults written out: the feed-forward
//! activation set to ReLU (burn's default is GELU). Also a norm_first layer, whose two
//! LayerNorms burn uses the other way round from PyTorch's norm1/norm2.
use burn::module::Param;
use burn::nn::activation::{Activation, ActivationConfig};
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
/// PyTorch's parameters of one layer: in_proj split into query/key/value,
/// linear1/linear2 → pwff.linear_inner/linear_outer, norm1/norm2 → norm_1/norm_2 (post-norm)
/// or norm_2/norm_1 (norm_first: burn's norm_2 runs before the attention, like torch's norm1).
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
    let (norm1, norm2) = match layer.norm_first {
        false => (&mut layer.norm_1, &mut layer.norm_2),
        true => (&mut layer.norm_2, &mut layer.norm_1),
    };
    norm1.gamma = Param::from_tensor(data([4], 90.0, d));
    norm1.beta = Some(Param::from_tensor(data([4], 100.0, d)));
    norm2.gamma = Param::from_tensor(data([4], 110.0, d));
    norm2.beta = Some(Param::from_tensor(data([4], 120.0, d)));
}
// endregion: weights

fn main() {
    // The plain (non-autodiff) device: Dropout is a no-op there, as after PyTorch's eval().
    let device = Device::flex();
    let x = data([2, 3, 4], 0.0, &device) * 2.0; // [batch, seq, d_model], like batch_first=True

    // region: model
    let config = TransformerEncoderConfig::new(4, 6, 2, 1) // d_model, d_ff, n_heads, n_layers
        .with_activation(ActivationConfig::Relu); // PyTorch's activation="relu"
    let mut encoder = config.init(&device);
    load_torch_layer(&mut encoder.layers[0], &device);
    let y = encoder.forward(TransformerEncoderInput::new(x.clone()));
    // endregion: model

    // region: check
    // The activation has no weights, so no loaded file can carry it: assert it on the config
    // and on every built layer.
    assert!(matches!(config.activation, ActivationConfig::Relu), "FFN activation: {config}");
    for layer in &encoder.layers {
        assert!(matches!(layer.pwff.activation, Activation::Relu(_)), "{:?}", layer.pwff.activation);
    }
    // endregion: check

    // region: norm_first
    let pre = config.clone().with_norm_first(true);
    let mut pre_encoder = pre.init(&device);
    load_torch_layer(&mut pre_encoder.layers[0], &device); // swaps the norms: norm_first is set
    let y_pre = pre_encoder.forward(TransformerEncoderInput::new(x));
    // endregion: norm_first

    let out = json!({
        "activation": format!("{:?}", config.activation),
        "dropout": config.dropout,
        "norm_first": config.norm_first,
        "config": serde_json::from_str::<Value>(&config.to_string()).unwrap(),
        "module": format!("{encoder}"),
        "y": flat(y.clone()),
        "shape": y.dims(),
        "y_norm_first": flat(y_pre),
        "layer_activation": format!("{:?}", encoder.layers[0].pwff.activation),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
