//! The three PyTorch habits of moved_value_habits.py, written so that they compile:
//! clone what is used again (a clone shares the data, it copies no numbers).
use burn::module::Param;
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const D: usize = 4;
const B: usize = 2;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

fn flat<const R: usize>(t: Tensor<R>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// region: buffer
#[derive(Module, Debug)]
struct Normalize {
    mean: Tensor<2>, // [1, D]
    std: Tensor<2>,  // [1, D]
}

impl Normalize {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        (x - self.mean.clone()) / self.std.clone() // clone: forward only borrows self
    }
}
// endregion: buffer

fn main() {
    let device = Device::flex();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * D, f64::sin, 0.5), [B, D]), &device);

    // Same weights as the PyTorch layer; burn stores the weight as [in, out].
    let mut layer: Linear = LinearConfig::new(D, D).init(&device);
    let w_out_in = Tensor::<2>::from_data(TensorData::new(seq(D * D, f64::cos, 0.3), [D, D]), &device);
    layer.weight = Param::from_tensor(w_out_in.transpose());
    layer.bias = Some(Param::from_tensor(Tensor::<1>::from_data(
        TensorData::new(seq(D, f64::sin, 0.1), [D]),
        &device,
    )));

    // region: residual
    let y = layer.forward(x.clone()) + x.clone(); // forward gets a clone, x stays ours
    // endregion: residual

    // region: check
    // x was not changed by the clone or by forward: y - layer(x) gives x back.
    let back = y.clone() - layer.forward(x.clone());
    let residual_gives_x_back = back.all_close(x.clone(), Some(0.0), Some(1e-6));
    // endregion: check

    let norm = Normalize {
        mean: Tensor::from_data(TensorData::new(seq(D, f64::cos, 0.2), [1, D]), &device),
        std: Tensor::from_data(TensorData::new(vec![1.0f32, 2.0, 4.0, 0.5], [1, D]), &device),
    };
    let n1 = norm.forward(x.clone());
    let n2 = norm.forward(x.clone() * 2); // the module works a second time

    let xs: Vec<Tensor<2>> = (0..3).map(|i| x.clone() * (i + 1) as f32).collect();
    let ys: Vec<Tensor<2>> = (0..3).map(|i| x.clone() - i as f32).collect();
    // region: pairs
    let mut outs = Vec::new();
    for (a, b) in xs.iter().zip(ys.iter()) {
        outs.push(a.clone() + b.clone()); // a, b are &Tensor: clone to get owned tensors
    }
    // endregion: pairs

    let out = json!({
        "residual": flat(y),
        "normalize": {"first": flat(n1), "second": flat(n2)},
        "pairs": outs.into_iter().map(flat).collect::<Vec<_>>(),
        "xs_still_usable": flat(xs[0].clone() + ys[0].clone()),
        "residual_gives_x_back": residual_gives_x_back,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
