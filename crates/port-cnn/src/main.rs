//! Written by the port generator: `cargo run --release` runs the model on data/weights.pt
//! (the script's state_dict, written by check.py) and data/input.json and prints its outputs as
//! JSON; check.py compares them with PyTorch's. `cargo run --release -- DIR` reads DIR instead;
//! `-- MODEL DIR` runs another of the script's models (check.py writes data/MODEL/).
mod model;

use std::path::Path;

use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use model::*;
use serde_json::{json, Value};
use burn::lr_scheduler::step::StepLrSchedulerConfig;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};
use burn::store::BurnpackStore;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    match args.get(1).map(String::as_str) {
        Some("train") => train(),
        Some(dir) => forward_net(Path::new(dir)),
        None => forward_net(&data),
    }
}

fn forward_net(dir: &Path) {
    let device = Device::flex();
    // line 60: model = Net()
    let mut model = Net::new(10, &device);
    // http://127.0.0.1:8000/reference/#store-load_linear
    let mut store = PytorchStore::from_file(dir.join("weights.pt"));
    model.load_from(&mut store).expect("weights.pt");
    let input: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("input.json")).expect("input.json")).unwrap();
    let shape: Vec<usize> = serde_json::from_value(input["shape"].clone()).unwrap();
    let data: Vec<f32> = serde_json::from_value(input["data"].clone()).unwrap();
    let x = Tensor::<4>::from_data(TensorData::new(data, shape), &device);
    let y = model.forward(x);
    let outputs = json!({ "out0": tensor_json(y) });
    println!("{}", json!({ "outputs": outputs }));
}

fn tensor_json<const D: usize>(t: Tensor<D>) -> Value {
    let shape = t.dims().to_vec();
    let data: Vec<f32> = t.into_data().convert::<f32>().try_to_vec().unwrap();
    json!({ "shape": shape, "data": data })
}


/// The training objects of the script, each from its row; the loop over the data is not generated.
#[allow(non_snake_case)]
fn train() {
    let device = Device::flex().autodiff();
    // line 60: model = Net()
    let model = Net::new(10, &device);
    // line 64: criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    // http://127.0.0.1:8000/reference/#functional-ce_index http://127.0.0.1:8000/reference/#functional-ce_smoothing
    let criterion = CrossEntropyLossConfig::new().with_smoothing(Some(0.1)).init(&device);
    // line 65: optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    // http://127.0.0.1:8000/reference/#training-sgd http://127.0.0.1:8000/reference/#modules-train_step http://127.0.0.1:8000/reference/#training-sgd_weight_decay
    let mut optimizer = SgdConfig::new().with_momentum(Some(MomentumConfig::new().with_momentum(0.9).with_dampening(0.0))).with_weight_decay(Some(WeightDecayConfig::new(0.0005))).init();
    let optimizer_lr = 0.05; // args.lr: the default of its add_argument
    // line 66: scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
    // http://127.0.0.1:8000/reference/#training-step_lr
    let mut scheduler = StepLrSchedulerConfig::new(optimizer_lr, 10).init().unwrap();
    // The script's training loop, statement by statement, in burn (each from its row):
    // line 73: optimizer.zero_grad()
    //     nothing to write: backward() returns fresh gradients each time
    //     http://127.0.0.1:8000/reference/#modules-train_step
    // line 76: loss.backward()
    //     step_net(model, &mut optimizer, loss, lr) below: backward() and the optimizer's step in one
    //     http://127.0.0.1:8000/reference/#modules-train_step
    // line 77: optimizer.step()
    //     step_net(model, &mut optimizer, loss, lr) below
    //     http://127.0.0.1:8000/reference/#modules-train_step
    // line 79: scheduler.step()
    //     let lr = scheduler.step().base(); once before the steps it covers (its first call gives the initial lr)
    //     http://127.0.0.1:8000/reference/#training-step_lr
    // line 92: torch.save(model.state_dict(), "cnn.pt")
    //     save_net(&model, "cnn.pt") below (burnpack, burn's own format; export_keys writes a file PyTorch reads)
    //     http://127.0.0.1:8000/reference/#store-save_load_state_dict
    todo!("the loop over the data: each batch, its loss, then for each optimizer `model = step_<model>(model, &mut optimizer, loss, lr)`");
}

/// One optimizer step of Net: loss.backward(), then optimizer.step(); zero_grad() has no
/// counterpart (backward() returns fresh gradients). http://127.0.0.1:8000/reference/#modules-train_step
fn step_net(model: Net, optimizer: &mut ModuleOptimizer, loss: Tensor<1>, lr: f64) -> Net {
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    optimizer.step(lr, model, grads)
}

/// torch.save(model.state_dict(), …) (line 92), in burn's own format (burnpack). http://127.0.0.1:8000/reference/#store-save_load_state_dict
fn save_net(model: &Net, path: &str) {
    let mut store = BurnpackStore::from_file(path).overwrite(true);
    model.save_into(&mut store).expect("save burnpack");
}
