//! A custom MLP with #[derive(Module)]: its parameters counted and listed, forward called twice.
//! Prints the same JSON structure as experiments/module/mlp.py.
use burn::module::{ModuleVisitor, Param};
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use serde_json::{json, Value};

// region: define
#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    act: Relu,
    fc2: Linear,
}

#[derive(Config, Debug)]
struct MlpConfig {
    d_in: usize,
    d_hidden: usize,
    d_out: usize,
}

impl MlpConfig {
    fn init(&self, device: &Device) -> Mlp {
        Mlp {
            fc1: LinearConfig::new(self.d_in, self.d_hidden).init(device),
            act: Relu::new(),
            fc2: LinearConfig::new(self.d_hidden, self.d_out).init(device),
        }
    }
}

impl Mlp {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.act.forward(self.fc1.forward(x)))
    }
}
// endregion: define

// region: visitor
/// Names and shapes of the float parameters, like PyTorch's named_parameters().
#[derive(Default)]
struct Names {
    path: Vec<String>,
    found: Vec<(String, Vec<usize>)>,
}

impl ModuleVisitor for Names {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        // lazy_shape: the shape without drawing the initial values.
        self.found.push((self.path.join("."), param.lazy_shape().to_vec()));
    }
}
// endregion: visitor

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

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
    let device = Device::flex();
    // region: count
    let model = MlpConfig::new(784, 128, 10).init(&device);
    let num_params = model.num_params();
    let mut names = Names::default();
    model.visit(&mut names);
    // endregion: count
    let initialized = model.fc1.weight.is_initialized();

    let mut small = MlpConfig::new(4, 8, 3).init(&device);
    load(&mut small.fc1, f64::sin, &device);
    load(&mut small.fc2, f64::cos, &device);
    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [4, 4]), &device);

    // region: forward
    let y1 = small.forward(x.clone()); // &self: small is only borrowed
    let y2 = small.forward(x); // x moves in here; without the clone above, E0382
    let same_twice = y1.clone().equal(y2).all().into_scalar::<bool>();
    // endregion: forward

    let out = json!({
        "num_params": num_params,
        "param_names": names.found.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        "param_numel": names.found.iter().map(|(_, s)| s.iter().product::<usize>()).collect::<Vec<_>>(),
        "param_shapes": names.found.iter().map(|(_, s)| s.clone()).collect::<Vec<_>>(),
        "params_initialized_by_counting": initialized,
        "y": nums(y1),
        "same_twice": same_twice,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
