//! Linear(4 → 3) with the same fixed weights as experiments/module/linear.py.
//! Prints the same JSON structure.
use burn::module::Param;
use burn::nn::{LinearConfig, LinearLayout};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 4;
const OUT: usize = 3;
const BATCH: usize = 2;

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

/// PyTorch's order [out, in]: element k (1-based) is 0.5·sin(k), in f64, rounded to f32 once.
fn weight_out_in(out: usize, inp: usize, device: &Device) -> Tensor<2> {
    let v: Vec<f32> = (0..out * inp)
        .map(|k| (0.5 * ((k + 1) as f64).sin()) as f32)
        .collect();
    Tensor::<2>::from_data(TensorData::new(v, [out, inp]), device)
}

fn main() {
    let device = Device::flex();
    // region: load
    let w = weight_out_in(OUT, IN, &device); // [out, in], as PyTorch stores it
    let b: Vec<f32> = (0..OUT).map(|o| (0.01 * o as f64) as f32).collect();
    let mut lin = LinearConfig::new(IN, OUT).init(&device);
    lin.weight = Param::from_tensor(w.transpose()); // burn stores [in, out]
    lin.bias = Some(Param::from_tensor(Tensor::<1>::from_data(
        TensorData::new(b, [OUT]),
        &device,
    )));
    // endregion: load

    // region: forward
    let x: Vec<f32> = (0..BATCH * IN)
        .map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32)
        .collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);
    let y = lin.forward(x.clone());
    let bias = lin.bias.as_ref().unwrap().val();
    let y_formula = x.clone().matmul(lin.weight.val()) + bias.clone().unsqueeze::<2>(); // x·W + b
    // endregion: forward

    // region: square
    // A square layer (4 → 4): once loaded the right way, once without the transpose.
    let w_sq = weight_out_in(IN, IN, &device);
    let mut sq = LinearConfig::new(IN, IN).with_bias(false).init(&device);
    sq.weight = Param::from_tensor(w_sq.clone().transpose());
    let y_square = sq.forward(x.clone());
    sq.weight = Param::from_tensor(w_sq); // forgot .transpose(): same shape, no error
    let y_square_untransposed = sq.forward(x.clone());
    // endregion: square
    let wrong_max_diff: f32 = (y_square.clone() - y_square_untransposed.clone())
        .abs()
        .max()
        .into_scalar();

    // region: layout
    let col = LinearConfig::new(IN, OUT)
        .with_layout(LinearLayout::Col)
        .init(&device);
    // endregion: layout

    let out = json!({
        "weight_shape": lin.weight.val().dims(),
        "bias_shape": bias.dims(),
        "y_shape": y.dims(),
        "y": nums(y),
        "y_formula": nums(y_formula),
        "y_square": nums(y_square),
        "y_square_untransposed": nums(y_square_untransposed),
        "untransposed_max_diff": f64::from(wrong_max_diff),
        "col_layout_weight_shape": col.weight.val().dims(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
