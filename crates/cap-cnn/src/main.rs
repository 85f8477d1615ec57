//! cnn_train.py ported to burn 0.22.1: the same glyphs, the same batches in the same order,
//! the same initial weights (data/init.pt, loaded through burn-store), Adam with a step
//! schedule, an evaluation loop with accuracy, and a checkpoint that a second binary
//! (crates/cap-cnn-infer, built without autodiff) loads for inference.
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use burn::lr_scheduler::step::StepLrSchedulerConfig;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
    Relu,
};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use burn::tensor::activation::log_softmax;
use burn::tensor::module::batch_norm_train;
use serde_json::{json, Map, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
const N_TRAIN: usize = 1000;
const N_TEST: usize = 200;
const BATCH: usize = 50;
const EPOCHS: usize = 3;
const LR: f64 = 3e-3;
const GAMMA: f64 = 0.7;
const DROPOUT: f64 = 0.25;

// region: data
/// 8×8 images, pixels 0..16, scaled to [0, 1]; glyphs.bin holds all images, then all labels.
struct Glyphs {
    images: Vec<f32>,
    labels: Vec<i64>,
}

impl Glyphs {
    fn load(start: usize, count: usize) -> Self {
        let raw = std::fs::read(format!("{DATA}/glyphs.bin")).expect("glyphs.bin");
        let n = raw.len() / 65;
        let images = raw[start * 64..(start + count) * 64]
            .iter()
            .map(|&p| p as f32 / 16.0)
            .collect();
        let labels = raw[n * 64 + start..n * 64 + start + count]
            .iter()
            .map(|&l| l as i64)
            .collect();
        Glyphs { images, labels }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    /// What the DataLoader's default collate builds: [B, 1, 8, 8] images and [B] labels.
    fn batch(&self, idx: &[usize], device: &Device) -> (Tensor<4>, Tensor<1, Int>) {
        let x: Vec<f32> = idx
            .iter()
            .flat_map(|&i| self.images[i * 64..(i + 1) * 64].iter().copied())
            .collect();
        let y: Vec<i64> = idx.iter().map(|&i| self.labels[i]).collect();
        (
            Tensor::from_data(TensorData::new(x, [idx.len(), 1, 8, 8]), device),
            Tensor::from_data(TensorData::new(y, [idx.len()]), device),
        )
    }
}

/// The indices PyTorch's shuffled DataLoader handed out, epoch by epoch (make_cnn_data.py):
/// burn cannot reproduce torch's generator, so it reads them.
fn loader_order() -> Vec<Vec<usize>> {
    let text = std::fs::read_to_string(format!("{DATA}/order.json")).expect("order.json");
    serde_json::from_str(&text).expect("order.json")
}
// endregion: data

// region: model
#[derive(Module, Debug)]
struct Net {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    pool: MaxPool2d,
    dropout: Dropout,
    fc1: Linear,
    fc2: Linear,
    relu: Relu,
    #[module(skip)]
    stock_bn: bool, // true: burn's own BatchNorm update (the naive port, for comparison)
}

impl Net {
    fn new(dropout: f64, device: &Device) -> Self {
        let conv = |i, o| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .with_bias(false)
                .init(device)
        };
        Net {
            conv1: conv(1, 8),
            bn1: BatchNormConfig::new(8).init(device),
            conv2: conv(8, 16),
            bn2: BatchNormConfig::new(16).init(device),
            pool: MaxPool2dConfig::new([2, 2]).init(), // stride defaults to the kernel, as in torch
            dropout: DropoutConfig::new(dropout).init(),
            fc1: LinearConfig::new(16 * 2 * 2, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
            stock_bn: false,
        }
    }

    fn bn(&self, bn: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
        if self.stock_bn { bn.forward(x) } else { forward_train(bn, x) }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let x = self.pool.forward(self.relu.forward(self.bn(&self.bn1, self.conv1.forward(x))));
        let x = self.pool.forward(self.relu.forward(self.bn(&self.bn2, self.conv2.forward(x))));
        let x = self.dropout.forward(x.flatten::<2>(1, 3));
        let x = self.relu.forward(self.fc1.forward(x));
        log_softmax(self.fc2.forward(x), 1)
    }
}

// endregion: model

// region: batchnorm
/// BatchNorm's training forward, updating the running statistics as PyTorch does (with the
/// unbiased variance): see docs/10-pitfalls/batchnorm.md. Inference goes to bn.forward.
fn forward_train<const D: usize>(bn: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    if !(x.device().is_autodiff() && bn.training.is_enabled()) {
        return bn.forward(x);
    }
    let n = (x.shape().num_elements() / x.dims()[1]) as f64; // elements per channel
    let out = batch_norm_train(x, bn.gamma.val(), bn.beta.val(), bn.epsilon);
    let m = bn.momentum;
    let mean = bn.running_mean.value_sync().mul_scalar(1.0 - m) + out.mean.mul_scalar(m);
    let var = bn.running_var.value_sync().mul_scalar(1.0 - m)
        + out.variance.mul_scalar(m * n / (n - 1.0));
    bn.running_mean.update(mean.detach());
    bn.running_var.update(var.detach());
    out.output
}
// endregion: batchnorm

// region: loss
/// F.nll_loss: the mean of -log_probs[i, y[i]].
fn nll_loss(log_probs: Tensor<2>, y: Tensor<1, Int>, mean: bool) -> Tensor<1> {
    let picked = log_probs.gather(1, y.unsqueeze_dim::<2>(1)).neg();
    if mean { picked.mean() } else { picked.sum() }
}
// endregion: loss

// region: evaluate
/// model.eval() + torch.no_grad(): valid() puts the parameters on the inner device, where
/// BatchNorm uses its running statistics and Dropout does nothing.
fn evaluate(model: &Net, data: &Glyphs, device: &Device) -> (f64, f64) {
    let model = model.valid();
    let device = device.clone().inner();
    let (mut loss, mut correct) = (0.0, 0);
    let all: Vec<usize> = (0..data.len()).collect();
    for idx in all.chunks(100) {
        let (x, y) = data.batch(idx, &device);
        let out = model.forward(x);
        loss += f64::from(nll_loss(out.clone(), y.clone(), false).into_scalar::<f32>());
        correct += out.argmax(1).squeeze_dim::<1>(1).equal(y).int().sum().into_scalar::<i64>();
    }
    (loss / data.len() as f64, correct as f64 / data.len() as f64)
}
// endregion: evaluate

fn fnv1a64(values: &[i64]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &v in values {
        h = (h ^ v as u64).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

struct Run {
    model: Net,
    losses: Vec<f32>,
    epochs: Vec<(f64, f64)>,
    seen: Vec<i64>,
    seconds: Vec<f64>,
}

fn train(dropout: f64, stock_bn: bool, train_set: &Glyphs, test_set: &Glyphs, device: &Device) -> Run {
    // region: init
    let mut model = Net { stock_bn, ..Net::new(dropout, device) };
    let mut store = PytorchStore::from_file(format!("{DATA}/init.pt"));
    model.load_from(&mut store).expect("load init.pt");
    // endregion: init
    // region: optim
    let mut optim = AdamConfig::new().with_epsilon(1e-8).init(); // torch's eps; burn's default is 1e-5
    // StepLR(step_size=1 epoch) counts epochs; burn's scheduler counts optimizer steps.
    let steps_per_epoch = N_TRAIN.div_ceil(BATCH);
    let mut scheduler = StepLrSchedulerConfig::new(LR, steps_per_epoch)
        .with_gamma(GAMMA)
        .init()
        .unwrap();
    // endregion: optim
    // region: loop
    let (mut losses, mut epochs, mut seen, mut seconds) = (vec![], vec![], vec![], vec![]);
    for order in loader_order().iter().take(EPOCHS) {
        let t0 = Instant::now();
        for idx in order.chunks(BATCH) {
            let (x, y) = train_set.batch(idx, device);
            seen.extend(idx.iter().map(|&i| train_set.labels[i]));
            let loss = nll_loss(model.forward(x), y, true);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(scheduler.step(), model, grads);
            losses.push(loss.into_scalar::<f32>());
        }
        seconds.push(t0.elapsed().as_secs_f64());
        epochs.push(evaluate(&model, test_set, device));
    }
    // endregion: loop
    Run { model, losses, epochs, seen, seconds }
}

/// Runs the inference program (crates/cap-cnn-infer, built without autodiff) on a checkpoint.
fn infer(checkpoint: &str) -> Value {
    let exe: PathBuf = std::env::current_exe().unwrap().with_file_name("cap-cnn-infer");
    let out = Command::new(&exe).arg(checkpoint).output().expect("run cap-cnn-infer");
    assert!(out.status.success(), "cap-cnn-infer: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cap-cnn-infer's JSON")
}

/// The running variances of both BatchNorms, after valid() has folded in the last update.
fn running_var(model: &Net) -> Value {
    let m = model.valid();
    let v = |bn: &BatchNorm| -> Vec<f64> {
        let d: Vec<f32> = bn.running_var.value().into_data().try_to_vec().unwrap();
        d.into_iter().map(f64::from).collect()
    };
    json!({"bn1": v(&m.bn1), "bn2": v(&m.bn2)})
}

fn main() {
    let device = Device::flex().autodiff();
    device.seed(1); // the dropout masks of the second run
    let (train_set, test_set) = (Glyphs::load(0, N_TRAIN), Glyphs::load(N_TRAIN, N_TEST));
    let matched = train(0.0, false, &train_set, &test_set, &device);

    // region: checkpoint
    // valid() first: it folds in the last running-statistics update (a model straight out of
    // the loop still lacks it, see docs/10-pitfalls/batchnorm.md).
    matched.model.valid().save_file("cnn.bpk").expect("save cnn.bpk");
    let inferred = infer("cnn.bpk");
    // endregion: checkpoint

    // The naive port of BatchNorm, for comparison: burn's own running-statistics update.
    let stock = train(0.0, true, &train_set, &test_set, &device);

    let dropped = train(DROPOUT, false, &train_set, &test_set, &device);
    // Per epoch, then per step: the comparison's tolerance grows by epoch.
    let mut loss = Map::new();
    for (e, chunk) in matched.losses.chunks(N_TRAIN.div_ceil(BATCH)).enumerate() {
        let mut steps = Map::new();
        for (k, v) in chunk.iter().enumerate() {
            let step = e * chunk.len() + k + 1;
            steps.insert(format!("step{step:02}"), json!(f64::from(*v)));
        }
        loss.insert(format!("epoch{}", e + 1), Value::Object(steps));
    }
    let mut epochs = Map::new();
    for (k, (l, a)) in matched.epochs.iter().enumerate() {
        epochs.insert(format!("epoch{}", k + 1), json!({"test_loss": l, "accuracy": a}));
    }
    let out = json!({
        "config": {"batch": BATCH, "epochs": EPOCHS, "lr": LR, "gamma": GAMMA, "dropout": DROPOUT},
        "batches_fnv": fnv1a64(&matched.seen),
        "steps": matched.losses.len(),
        "loss": loss,
        "epochs": epochs,
        "predictions": inferred["predictions"],
        "predictions_correct": inferred["predictions_correct"],
        "log_probs_first4": inferred["log_probs_first4"],
        "running_var": running_var(&matched.model),
        "dropout_run": {
            "final_train_loss": f64::from(*dropped.losses.last().unwrap()),
            "accuracy": dropped.epochs.last().unwrap().1,
        },
        "naive": {
            "stock_batchnorm": {
                "final_train_loss": f64::from(*stock.losses.last().unwrap()),
                "test_loss": stock.epochs.last().unwrap().0,
                "accuracy": stock.epochs.last().unwrap().1,
                "running_var": running_var(&stock.model),
            },
        },
        "seconds": {"epochs": matched.seconds},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
