//! nn.ModuleDict, fixed: the heads in a Vec<Linear> (a Module), their names in a skipped
//! Vec<String> beside it. Prints the same JSON structure as module_hashmap.py.
use burn::module::{list_param_ids, ModuleVisitor, Param};
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Map, Value};

const IN: usize = 4;
const B: usize = 4;
const STEPS: usize = 3;
const LR: f64 = 0.1;
const HEADS: [(&str, usize); 2] = [("cls", 3), ("reg", 1)]; // name, output size

fn seq(n: usize, f: fn(f64) -> f64, scale: f64, start: usize) -> Vec<f32> {
    (0..n).map(|k| (scale * f((start + k + 1) as f64)) as f32).collect()
}

/// Weight element k of PyTorch's [out, in] is 0.5·sin(start + k), transposed to burn's
/// [in, out]; bias element o is 0.01·o.
fn linear(out: usize, start: usize, device: &Device) -> Linear {
    let w = TensorData::new(seq(out * IN, f64::sin, 0.5, start), [out, IN]);
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(w, device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

/// The dotted path of every float parameter, like PyTorch's named_parameters().
#[derive(Default)]
struct Paths {
    path: Vec<String>,
    out: Vec<String>,
}

impl ModuleVisitor for Paths {
    fn enter_module(&mut self, name: &str, _container: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container: &str) {
        self.path.pop();
    }
    fn visit_float<const D: usize>(&mut self, _param: &Param<Tensor<D>>) {
        self.out.push(self.path.join("."));
    }
}

// region: model
#[derive(Module, Debug)]
struct Heads {
    heads: Vec<Linear>,
    #[module(skip)]
    names: Vec<String>, // configuration, not parameters: skipping it is right
}

impl Heads {
    fn head(&self, name: &str) -> &Linear {
        let i = self.names.iter().position(|n| n == name).expect("no such head");
        &self.heads[i]
    }
}
// endregion: model

impl Heads {
    fn new(device: &Device) -> Self {
        let heads = HEADS.iter().enumerate().map(|(i, &(_, out))| linear(out, 10 * i, device)).collect();
        let names = HEADS.iter().map(|&(name, _)| name.to_string()).collect();
        Self { heads, names }
    }
}

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::cos, 0.5, 0), [B, IN]), &device);
    let targets: Vec<Tensor<2>> = HEADS
        .iter()
        .enumerate()
        .map(|(i, &(_, out))| {
            let t = seq(B * out, f64::sin, 0.3, 100 * (i + 1));
            Tensor::<2>::from_data(TensorData::new(t, [B, out]), &device)
        })
        .collect();
    // region: train
    let loss_of = |model: &Heads| {
        HEADS
            .iter()
            .zip(&targets)
            .map(|(&(name, _), t)| (model.head(name).forward(x.clone()) - t.clone()).powi_scalar(2).mean())
            .reduce(|a, b| a + b)
            .unwrap()
    };
    // endregion: train

    let mut model = Heads::new(&device);
    let (num_params, num_param_tensors) = (model.num_params(), list_param_ids(&model).len());
    let mut paths = Paths::default();
    model.visit(&mut paths);
    // region: check
    let expected: usize = HEADS.iter().map(|&(_, out)| IN * out + out).sum();
    assert_eq!(model.num_params(), expected, "every head's weight and bias must be parameters");
    // endregion: check
    // region: train
    let mut optim = SgdConfig::new().init();
    let (mut losses, mut with_grad) = (vec![], vec![]);
    for _ in 0..STEPS {
        let loss = loss_of(&model);
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        with_grad.push(grads.len());
        model = optim.step(LR, model, grads);
    }
    // endregion: train
    losses.push(f64::from(loss_of(&model).into_scalar::<f32>()));

    let mut heads = Map::new();
    for &(name, _) in HEADS.iter() {
        let h = model.head(name);
        heads.insert(
            name.to_string(),
            json!({"weight": nums(h.weight.val().transpose()), "bias": nums(h.bias.as_ref().unwrap().val())}),
        );
    }
    let out = json!({
        "config": {"in": IN, "batch": B, "steps": STEPS, "lr": LR, "optimizer": "SGD",
                   "heads": HEADS.iter().map(|&(n, o)| (n.to_string(), json!(o))).collect::<Map<_, _>>()},
        "num_params": num_params,
        "num_param_tensors": num_param_tensors,
        "param_names": paths.out,
        "params_with_grad": with_grad,
        "losses": losses,
        "heads": heads,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
