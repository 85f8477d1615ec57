//! The A1 MLP in burn 0.22.1 style: no backend parameter, the backend lives in the Device.
use burn::module::Param;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use serde_json::json;

// region: model
#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear, // was Linear<B>
    act: Relu,
    fc2: Linear,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        // was &B::Device
        Self {
            fc1: LinearConfig::new(4, 8).init(device),
            act: Relu::new(),
            fc2: LinearConfig::new(8, 3).init(device),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        // was Tensor<B, 2>
        self.fc2.forward(self.act.forward(self.fc1.forward(x)))
    }
}
// endregion: model

/// A1's weights, given in PyTorch's [out, in] order and transposed to burn's [in, out].
fn load(lin: &mut Linear, f: fn(f64) -> f64, device: &Device) {
    let [inp, out] = lin.weight.val().dims();
    let w: Vec<f32> = (0..out * inp).map(|k| (0.5 * f((k + 1) as f64)) as f32).collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    let w = Tensor::<2>::from_data(TensorData::new(w, [out, inp]), device).transpose();
    lin.weight = Param::from_tensor(w);
    lin.bias = Some(Param::from_tensor(Tensor::from_data(TensorData::new(b, [out]), device)));
}

fn main() {
    // region: main
    let device = Device::flex(); // was: type MyBackend = NdArray; Default::default()
    let mut model = Mlp::new(&device);
    // endregion: main
    load(&mut model.fc1, f64::sin, &device);
    load(&mut model.fc2, f64::cos, &device);
    let xs: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    // region: input
    let x = Tensor::<2>::from_data(TensorData::new(xs, [4, 4]), &device); // was Tensor::<B, 2>
    let y = model.forward(x);
    // endregion: input
    let shape = y.dims().to_vec();
    let v: Vec<f32> = y.into_data().try_to_vec::<f32>().unwrap();
    let out = json!({"shape": shape, "y": v.into_iter().map(f64::from).collect::<Vec<_>>()});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
