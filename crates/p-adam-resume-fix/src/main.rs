//! A1's MLP trained with Adam (lr 0.1) for 15 steps, then saved with burn's own records for
//! both the model and the optimizer; a rebuilt model loads both and trains 15 more steps.
//! Also the same 30 steps without a break. Same steps as
//! experiments/pitfalls/adam-resume/adam_resume.py.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, OptimizerRecord};
use burn::prelude::*;
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

    // The same 30 steps without a break.
    let (_, uninterrupted) = train(a1_model(&device), &mut adam().init(), &d, FIRST + RESUMED);

    // region: save
    let mut optim = adam().init();
    let (model, first) = train(a1_model(&device), &mut optim, &d, FIRST);
    model.clone().save_file("model.bpk").unwrap(); // burnpack: keeps each ParamId
    optim.save("optim.bpk").unwrap();
    let saved_ids = model.ids();
    drop((model, optim));
    // endregion: save

    // region: resume
    let model = Mlp::init(&device).load_file("model.bpk"); // takes the saved ParamIds back
    let ids_restored = model.ids() == saved_ids;
    let mut optim = adam().init().load("optim.bpk").unwrap();
    let (model, resumed) = train(model, &mut optim, &d, RESUMED);
    // endregion: resume
    drop(model);

    // region: check
    // The optimizer holds one state per parameter it has seen. If the loaded states belong
    // to this model, a step adds none; if they are orphans, the count grows.
    let record = OptimizerRecord::load("optim.bpk").unwrap();
    let record_len_saved = record.len();
    let mut optim = adam().init().load_record(record);
    let model = Mlp::init(&device).load_file("model.bpk");
    let (_, _) = train(model, &mut optim, &d, 1);
    let record_len_after = optim.to_record().len();
    assert_eq!(record_len_after, record_len_saved, "the loaded Adam state was not used");
    // endregion: check

    let curve: Vec<f64> = first.iter().chain(&resumed).copied().collect();
    let out = json!({
        "config": serde_json::to_value(adam()).unwrap(),
        "lr": LR,
        "loss_first": first,
        "loss_resumed": resumed,
        "loss_curve": curve,
        "loss_uninterrupted": uninterrupted,
        "resume_equals_uninterrupted": curve == uninterrupted,
        "ids_restored": ids_restored,
        "record_len_saved": record_len_saved,
        "record_len_after_resume": record_len_after,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
