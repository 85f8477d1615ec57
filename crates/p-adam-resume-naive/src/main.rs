//! A1's MLP trained with Adam (lr 0.1) for 15 steps, then saved the way a PyTorch user
//! might: the weights as safetensors, the optimizer with burn's own record. A rebuilt model
//! loads both and trains 15 more steps. Same steps as
//! experiments/pitfalls/adam-resume/adam_resume.py.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, SafetensorsStore};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;
const LR: f64 = 0.1;
const FIRST: usize = 15;
const RESUMED: usize = 15;

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

impl Mlp {
    /// A fresh model: burn's random init, as a rebuilt model starts.
    fn init(device: &Device) -> Self {
        Self {
            fc1: LinearConfig::new(IN, HID).init(device),
            relu: Relu::new(),
            fc2: LinearConfig::new(HID, OUT).init(device),
        }
    }
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.relu.forward(self.fc1.forward(x)))
    }
    fn ids(&self) -> Vec<u64> {
        [&self.fc1, &self.fc2]
            .iter()
            .flat_map(|l| [l.weight.id.val(), l.bias.as_ref().unwrap().id.val()])
            .collect()
    }
}

/// A1's weights: element k (1-based, PyTorch's [out, in]) is 0.5·f(k), bias o is 0.01·o.
/// Written straight into burn's [in, out] layout, so the tensor is contiguous.
fn a1_linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let w: Vec<f32> = (0..inp * out)
        .map(|j| (0.5 * f(((j % out) * inp + j / out + 1) as f64)) as f32)
        .collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [inp, out]), device)),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

fn a1_model(device: &Device) -> Mlp {
    Mlp {
        fc1: a1_linear(HID, IN, f64::sin, device),
        relu: Relu::new(),
        fc2: a1_linear(OUT, HID, f64::cos, device),
    }
}

fn adam() -> AdamConfig {
    AdamConfig::new().with_beta_1(0.9).with_beta_2(0.999).with_epsilon(1e-8)
}

struct Data {
    x: Tensor<2>,
    y: Tensor<1, Int>,
}

fn data(device: &Device) -> Data {
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let y: Vec<i64> = (0..BATCH as i64).map(|b| b % OUT as i64).collect();
    Data {
        x: Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), device),
        y: Tensor::<1, Int>::from_data(TensorData::new(y, [BATCH]), device),
    }
}

/// `steps` Adam steps; returns the model and the loss before each step.
fn train(mut model: Mlp, optim: &mut ModuleOptimizer, d: &Data, steps: usize) -> (Mlp, Vec<f64>) {
    let loss_fn = CrossEntropyLossConfig::new().init(&d.x.device());
    let mut losses = Vec::new();
    for _ in 0..steps {
        let loss = loss_fn.forward(model.forward(d.x.clone()), d.y.clone());
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(LR, model, grads);
    }
    (model, losses)
}

fn main() {
    let device = Device::flex().autodiff();
    let d = data(&device);

    // region: save
    let mut optim = adam().init();
    let (model, first) = train(a1_model(&device), &mut optim, &d, FIRST);
    model.save_into(&mut SafetensorsStore::from_file("model.safetensors")).unwrap();
    optim.save("optim.bpk").unwrap();
    let saved_ids = model.ids();
    let record_len_saved = optim.to_record().len();
    drop((model, optim));
    // endregion: save

    // region: resume
    let mut model = Mlp::init(&device); // rebuilt: fresh parameters
    model.load_from(&mut SafetensorsStore::from_file("model.safetensors")).unwrap();
    let mut optim = adam().init().load("optim.bpk").unwrap(); // loaded without complaint
    let (model, resumed) = train(model, &mut optim, &d, RESUMED);
    // endregion: resume
    let ids_restored = model.ids() == saved_ids;
    let record_len_after = optim.to_record().len();

    // The same resume with an Adam created anew, its record never loaded.
    let mut model = Mlp::init(&device);
    model.load_from(&mut SafetensorsStore::from_file("model.safetensors")).unwrap();
    let (_, fresh) = train(model, &mut adam().init(), &d, RESUMED);

    let curve: Vec<f64> = first.iter().chain(&resumed).copied().collect();
    let out = json!({
        "config": serde_json::to_value(adam()).unwrap(),
        "lr": LR,
        "loss_first": first,
        "loss_resumed": resumed,
        "loss_curve": curve,
        "same_as_fresh_optimizer": resumed == fresh,
        "jumps_after_resume": resumed[1] > resumed[0],
        "ids_restored": ids_restored,
        "record_len_saved": record_len_saved,
        "record_len_after_resume": record_len_after,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
