//! cnn_train.py ported a second time, with burn-train's Learner instead of a hand-written loop
//! (crates/cap-cnn): the same glyphs, the same batches in the same order, the same initial
//! weights (data/init.pt of cap-cnn), Adam with a step schedule; the Learner runs the epochs,
//! the validation on the test set, the metrics (loss, accuracy), the checkpoints and early
//! stopping; the Evaluator runs the test set once more on the trained model.
//!
//! The Learner prints its progress on stdout (burn-train's CLI renderer: the TUI dashboard is
//! a feature left off), where this program's JSON goes. So the program runs itself: the child
//! (`cap-cnn-learner fit DIR EPOCHS PATIENCE`) trains, its stdout is captured by the parent, which then reads
//! what the Learner wrote in DIR (the per-step losses are the Learner's own log files) and
//! prints one JSON object.
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder, DataLoaderIterator};
use burn::data::dataset::transform::SelectionDataset;
use burn::data::dataset::InMemDataset;
use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
use burn::lr_scheduler::step::StepLrSchedulerConfig;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
    Relu,
};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use burn::tensor::activation::log_softmax;
use burn::tensor::module::batch_norm_train;
use burn::train::metric::store::{Aggregate, Direction, Split};
use burn::train::metric::{AccuracyMetric, LossMetric};
use burn::train::{
    ClassificationOutput, EvaluatorBuilder, InferenceStep, Learner, MetricEarlyStoppingStrategy,
    StoppingCondition, SupervisedTraining, TrainOutput, TrainStep,
};
use serde_json::{json, Map, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-cnn/data");
const N_TRAIN: usize = 1000;
const N_TEST: usize = 200;
const BATCH: usize = 50;
const EPOCHS: usize = 3;
const LR: f64 = 3e-3;
const GAMMA: f64 = 0.7;
const STEPS_PER_EPOCH: usize = N_TRAIN.div_ceil(BATCH);
const STOP_MAX_EPOCHS: usize = 30;

// region: data
/// One sample: an 8×8 image, pixels 0..16 scaled to [0, 1], and its label.
#[derive(Clone, Debug)]
struct Glyph {
    pixels: Vec<f32>,
    label: i64,
}

/// glyphs.bin holds all images, then all labels.
fn glyphs(start: usize, count: usize) -> Vec<Glyph> {
    let raw = std::fs::read(format!("{DATA}/glyphs.bin")).expect("glyphs.bin");
    let n = raw.len() / 65;
    (start..start + count)
        .map(|i| Glyph {
            pixels: raw[i * 64..(i + 1) * 64].iter().map(|&p| p as f32 / 16.0).collect(),
            label: raw[n * 64 + i] as i64,
        })
        .collect()
}

#[derive(Clone, Debug)]
struct GlyphBatch {
    images: Tensor<4>,
    targets: Tensor<1, Int>,
}

/// What the DataLoader's default collate builds: [B, 1, 8, 8] images and [B] labels. The
/// training batcher also keeps the labels it hands out, for the hash of the batch order.
#[derive(Clone, Default)]
struct GlyphBatcher {
    seen: Option<Arc<Mutex<Vec<i64>>>>,
}

impl Batcher<Glyph, GlyphBatch> for GlyphBatcher {
    fn batch(&self, items: Vec<Glyph>, device: &Device) -> GlyphBatch {
        let x: Vec<f32> = items.iter().flat_map(|g| g.pixels.iter().copied()).collect();
        let y: Vec<i64> = items.iter().map(|g| g.label).collect();
        if let Some(seen) = &self.seen {
            seen.lock().unwrap().extend(&y);
        }
        GlyphBatch {
            images: Tensor::from_data(TensorData::new(x, [items.len(), 1, 8, 8]), device),
            targets: Tensor::from_data(TensorData::new(y, [items.len()]), device),
        }
    }
}

/// The indices PyTorch's shuffled DataLoader handed out, epoch by epoch (cap-cnn's
/// make_cnn_data.py): burn cannot reproduce torch's generator, so it reads them.
fn loader_order() -> Vec<Vec<usize>> {
    let text = std::fs::read_to_string(format!("{DATA}/order.json")).expect("order.json");
    serde_json::from_str(&text).expect("order.json")
}

/// The training loader: one unshuffled DataLoader per epoch over the samples in PyTorch's
/// order for that epoch, and a counter. The Learner calls `iter()` exactly once per training
/// epoch (SingleDeviceTrainEpoch::run), so `iter()` is where an epoch begins: it hands out the
/// next epoch's loader. A loader over all 3 epochs' indices would not do (the Learner would
/// run all 60 steps as its epoch 1), nor would burn's `shuffle(seed)` (its own RNG). Keyed
/// on the loader, not on `Dataset::get`, so it does not depend on how the batches are
/// fetched. Past the last recorded epoch it starts again from the first. (A run resumed from
/// a checkpoint, `.checkpoint(n)`, would have to start the counter at n.)
struct EpochOrderLoader {
    epochs: Vec<Arc<dyn DataLoader<GlyphBatch>>>,
    next: Arc<AtomicUsize>,
}

impl DataLoader<GlyphBatch> for EpochOrderLoader {
    fn iter<'a>(&'a self) -> Box<dyn DataLoaderIterator<GlyphBatch> + 'a> {
        let epoch = self.next.fetch_add(1, Ordering::SeqCst);
        self.epochs[epoch % self.epochs.len()].iter()
    }

    fn num_items(&self) -> usize {
        self.epochs[0].num_items()
    }

    // The Learner moves the loader to its device once, before the first epoch: the moved
    // loader shares the counter.
    fn to_device(&self, device: &Device) -> Arc<dyn DataLoader<GlyphBatch>> {
        let epochs = self.epochs.iter().map(|l| l.to_device(device)).collect();
        Arc::new(EpochOrderLoader { epochs, next: self.next.clone() })
    }

    fn slice(&self, start: usize, end: usize) -> Arc<dyn DataLoader<GlyphBatch>> {
        let epochs = self.epochs.iter().map(|l| l.slice(start, end)).collect();
        Arc::new(EpochOrderLoader { epochs, next: self.next.clone() })
    }
}

fn train_loader(seen: Arc<Mutex<Vec<i64>>>) -> Arc<dyn DataLoader<GlyphBatch>> {
    let train = Arc::new(InMemDataset::new(glyphs(0, N_TRAIN)));
    let epochs = loader_order()
        .into_iter()
        .map(|order| {
            DataLoaderBuilder::new(GlyphBatcher { seen: Some(seen.clone()) })
                .batch_size(BATCH)
                .build(SelectionDataset::<InMemDataset<Glyph>, Glyph>::from_indices_checked(
                    train.clone(),
                    order,
                ))
        })
        .collect();
    Arc::new(EpochOrderLoader { epochs, next: Arc::new(AtomicUsize::new(0)) })
}

/// The 200 test samples in order, 100 a batch (cnn_train.py's test loader).
fn test_loader() -> Arc<dyn DataLoader<GlyphBatch>> {
    DataLoaderBuilder::new(GlyphBatcher::default())
        .batch_size(100)
        .build(InMemDataset::new(glyphs(N_TRAIN, N_TEST)))
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
            pool: MaxPool2dConfig::new([2, 2]).init(),
            dropout: DropoutConfig::new(dropout).init(),
            fc1: LinearConfig::new(16 * 2 * 2, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
        }
    }

    /// Net::new with init.pt's weights, as cnn_train.py's `load_state_dict`.
    fn init(device: &Device) -> Self {
        let mut model = Net::new(0.0, device);
        let mut store = PytorchStore::from_file(format!("{DATA}/init.pt"));
        model.load_from(&mut store).expect("load init.pt");
        model
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let block = |bn, x| self.pool.forward(self.relu.forward(forward_train(bn, x)));
        let x = block(&self.bn1, self.conv1.forward(x)); // [B, 8, 4, 4]
        let x = block(&self.bn2, self.conv2.forward(x)); // [B, 16, 2, 2]
        let x = self.dropout.forward(x.flatten::<2>(1, 3));
        let x = self.relu.forward(self.fc1.forward(x));
        log_softmax(self.fc2.forward(x), 1)
    }
}

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

/// F.nll_loss: the mean of -log_probs[i, y[i]].
fn nll_loss(log_probs: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
    log_probs.gather(1, y.unsqueeze_dim::<2>(1)).neg().mean()
}
// endregion: model

// region: steps
/// What the Learner calls for each training batch: forward, loss, backward. It steps the
/// scheduler and the optimizer itself. The output feeds the metrics.
impl TrainStep for Net {
    type Input = GlyphBatch;
    type Output = ClassificationOutput;

    fn step(&self, batch: GlyphBatch) -> TrainOutput<ClassificationOutput> {
        let log_probs = self.forward(batch.images);
        let loss = nll_loss(log_probs.clone(), batch.targets.clone());
        let grads = loss.backward();
        TrainOutput::new(self, grads, ClassificationOutput::new(loss, log_probs, batch.targets))
    }
}

/// Validation and the Evaluator: the Learner calls it on `model.valid()` (no autodiff, so
/// BatchNorm uses its running statistics and Dropout does nothing).
impl InferenceStep for Net {
    type Input = GlyphBatch;
    type Output = ClassificationOutput;

    fn step(&self, batch: GlyphBatch) -> ClassificationOutput {
        let log_probs = self.forward(batch.images);
        let loss = nll_loss(log_probs.clone(), batch.targets.clone());
        ClassificationOutput::new(loss, log_probs, batch.targets)
    }
}
// endregion: steps

// region: optim
fn optimizer() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-8).init() // torch's eps; burn's default is 1e-5
}

fn scheduler() -> ModuleLrScheduler {
    // StepLR(step_size=1 epoch) counts epochs; burn's scheduler counts optimizer steps (the
    // Learner steps it before each optimizer step, as the hand-written loop does).
    StepLrSchedulerConfig::new(LR, STEPS_PER_EPOCH).with_gamma(GAMMA).init().unwrap()
}
// endregion: optim

/// The child: trains with the Learner in `dir`, its stdout captured by the parent. `epochs`
/// and `patience` differ only for the early-stopping run.
fn fit(dir: &str, epochs: usize, patience: usize) {
    let device = Device::flex().autodiff();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let t0 = Instant::now();
    // region: loop
    let learner = Learner::new(Net::init(&device), optimizer(), scheduler());
    let result = SupervisedTraining::new(dir, train_loader(seen.clone()), test_loader())
        .metrics((LossMetric::new(), AccuracyMetric::new()))
        .with_default_checkpointers() // dir/checkpoint/{model,optim,scheduler}-<epoch>.bpk
        .early_stopping(MetricEarlyStoppingStrategy::new(
            &LossMetric::new(),
            Aggregate::Mean,
            Direction::Lowest,
            Split::Valid,
            StoppingCondition::NoImprovementSince { n_epochs: patience },
        ))
        .num_epochs(epochs)
        .summary()
        .launch(learner);
    // endregion: loop
    let fit_seconds = t0.elapsed().as_secs_f64();
    assert!(result.error.is_none(), "training failed: {:?}", result.error);

    // region: evaluate
    let t1 = Instant::now();
    let evaluation = EvaluatorBuilder::new(dir)
        .metrics((LossMetric::new(), AccuracyMetric::new()))
        .build(result.model.clone())
        .eval("glyphs", test_loader());
    // endregion: evaluate
    let eval_seconds = t1.elapsed().as_secs_f64();
    assert!(evaluation.error.is_none(), "evaluation failed: {:?}", evaluation.error);

    let seen = seen.lock().unwrap().clone();
    let out = json!({
        "batches_fnv": fnv1a64(&seen),
        "labels_seen": seen.len(),
        "interrupted": result.interrupted.map(|i| i.reason),
        "seconds": {"fit": fit_seconds, "evaluator": eval_seconds},
    });
    std::fs::write(format!("{dir}.json"), out.to_string()).expect("write the child's result");
}

/// cap-cnn's hand-written loop over the same loaders, built with this crate's burn features
/// (train turns on burn-flex's default simd and rayon, which cap-cnn is built without).
fn hand_loop() -> (Vec<f32>, Vec<(f64, f64)>, Vec<i64>, f64) {
    let device = Device::flex().autodiff();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let loader = train_loader(seen.clone()).to_device(&device);
    let test = test_loader().to_device(&device.clone().inner());
    let t0 = Instant::now();
    let mut model = Net::init(&device);
    let mut optim = optimizer();
    let mut scheduler = scheduler();
    let (mut losses, mut epochs) = (vec![], vec![]);
    for _ in 0..EPOCHS {
        for batch in loader.iter() {
            let batch = batch.expect("batch");
            let loss = nll_loss(model.forward(batch.images), batch.targets);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(scheduler.step(), model, grads);
            losses.push(loss.into_scalar::<f32>());
        }
        epochs.push(evaluate(&model.valid(), &test));
    }
    let seconds = t0.elapsed().as_secs_f64();
    let seen = seen.lock().unwrap().clone();
    (losses, epochs, seen, seconds)
}

/// Mean NLL over the test set and the fraction correct (cnn_train.py's evaluate, which sums
/// the NLL per batch: here the batch means, weighted by the batch size).
fn evaluate(model: &Net, test: &Arc<dyn DataLoader<GlyphBatch>>) -> (f64, f64) {
    let (mut loss, mut correct) = (0.0, 0);
    for batch in test.iter() {
        let batch = batch.expect("batch");
        let n = batch.targets.dims()[0] as f64;
        let out = model.forward(batch.images);
        loss += n * f64::from(nll_loss(out.clone(), batch.targets.clone()).into_scalar::<f32>());
        let hits = out.argmax(1).squeeze_dim::<1>(1).equal(batch.targets).int().sum();
        correct += hits.into_scalar::<i64>();
    }
    (loss / N_TEST as f64, correct as f64 / N_TEST as f64)
}

fn fnv1a64(values: &[i64]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &v in values {
        h = (h ^ v as u64).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

/// A metric log the Learner wrote: one line per batch ("value,count"), then, at the end of
/// a training or validation epoch, "value,final". Returns the per-batch values and the
/// epoch's value: the final line, or (the Evaluator writes none) the count-weighted mean, as
/// burn-train's own aggregate computes it.
fn read_log(path: PathBuf) -> (Vec<f64>, f64) {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut items, mut sum, mut count, mut last) = (vec![], 0.0, 0, None);
    for line in text.lines() {
        let (value, tag) = line.split_once(',').expect("value,count");
        let value: f64 = value.parse().expect("a number");
        if tag == "final" {
            last = Some(value);
        } else {
            let n: usize = tag.parse().expect("a count");
            items.push(value);
            sum += value * n as f64;
            count += n;
        }
    }
    (items, last.unwrap_or(sum / count as f64))
}

/// Every file under `dir`, relative, sorted, with its size.
fn files(dir: &Path) -> Vec<(String, u64)> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.push((rel, path.metadata().unwrap().len()));
            }
        }
    }
    out.sort();
    out
}

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path)
}

/// Files whose size changes from run to run: experiment.log has a timestamp on every line;
/// the optimizer's checkpoint names its tensors by the parameters' ids
/// ("11598523947438162860.momentum.moment_1"), drawn at random when the model is built.
fn size_varies(file: &str) -> bool {
    file == "experiment.log" || file.starts_with("checkpoint/optim-")
}

/// Runs `cap-cnn-learner fit DIR EPOCHS PATIENCE` and returns what it printed.
fn run_child(dir: &str, epochs: usize, patience: usize) -> (String, String, f64) {
    // What an earlier run left in DIR stays: experiment.log is appended to, and the summary
    // counts every epoch folder it finds (a 2-epoch run after a 3-epoch one says 3). Start
    // from an empty one.
    let _ = std::fs::remove_dir_all(dir);
    let t0 = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["fit", dir, &epochs.to_string(), &patience.to_string()])
        .output()
        .expect("run the child");
    let seconds = t0.elapsed().as_secs_f64();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "child failed:\n{stdout}\n{stderr}");
    (stdout, stderr, seconds)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("fit") {
        return fit(&args[2], args[3].parse().unwrap(), args[4].parse().unwrap());
    }

    // The run that matches cnn_train.py: 3 epochs; patience 2, so early stopping cannot
    // trigger before epoch 3 (it needs two epochs without a better valid loss).
    let (stdout, stderr, child_seconds) = run_child("artifacts", EPOCHS, 2);
    let child = read_json("artifacts.json");
    let dir = Path::new("artifacts");

    // The per-step losses as the Learner logged them (train/epoch-N/Loss.log), and the
    // validation numbers on the test set (valid/epoch-N/{Loss,Accuracy}.log).
    let (mut loss, mut epochs, mut all_losses) = (Map::new(), Map::new(), vec![]);
    let mut valid = vec![];
    for e in 1..=EPOCHS {
        let (steps, _) = read_log(dir.join(format!("train/epoch-{e}/Loss.log")));
        let mut m = Map::new();
        for v in &steps {
            all_losses.push(*v);
            m.insert(format!("step{:02}", all_losses.len()), json!(v));
        }
        loss.insert(format!("epoch{e}"), Value::Object(m));
        let (_, test_loss) = read_log(dir.join(format!("valid/epoch-{e}/Loss.log")));
        let (_, accuracy) = read_log(dir.join(format!("valid/epoch-{e}/Accuracy.log")));
        let accuracy = accuracy / 100.0; // logged in %
        valid.push((test_loss, accuracy));
        epochs.insert(format!("epoch{e}"), json!({"test_loss": test_loss, "accuracy": accuracy}));
    }
    let (_, eval_loss) = read_log(dir.join("test/glyphs/Loss.log"));
    let (_, eval_acc) = read_log(dir.join("test/glyphs/Accuracy.log"));
    let written = files(dir);

    // The checkpoint the Learner kept of the last epoch, loaded into a fresh model.
    let inner = Device::flex();
    let last = Net::new(0.0, &inner).load_file(dir.join(format!("checkpoint/model-{EPOCHS}.bpk")));
    let reloaded = evaluate(&last, &test_loader().to_device(&inner));

    // The same training by hand, in this binary: the Learner adds no arithmetic of its own.
    let (hand_losses, hand_epochs, hand_seen, hand_seconds) = hand_loop();
    let hand_losses: Vec<f64> = hand_losses.into_iter().map(f64::from).collect();
    let max_diff = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    };

    // Early stopping that does trigger: up to 30 epochs (the 3 recorded orders over again),
    // stop at the first epoch whose valid loss is no better than the best before it.
    run_child("artifacts-stop", STOP_MAX_EPOCHS, 1);
    let stop = read_json("artifacts-stop.json");
    let stop_dir = Path::new("artifacts-stop");
    let mut stop_valid = vec![];
    loop {
        let log = stop_dir.join(format!("valid/epoch-{}/Loss.log", stop_valid.len() + 1));
        if !log.exists() {
            break;
        }
        stop_valid.push(read_log(log).1);
    }
    // The Learner says nothing about it on stdout nor in its result: experiment.log has it.
    let stop_log = std::fs::read_to_string(stop_dir.join("experiment.log")).unwrap();
    let stop_line = stop_log
        .lines()
        .find(|l| l.contains("Stopping training loop"))
        .and_then(|l| l.split_once("INFO ").map(|(_, msg)| msg.to_string()));
    let stop_checkpoints: Vec<String> = files(&stop_dir.join("checkpoint"))
        .into_iter()
        .filter(|(f, _)| f.starts_with("model-"))
        .map(|(f, _)| f)
        .collect();

    // The CLI renderer prints one line per batch (a Debug-printed ProgressSnapshot), the
    // splits' starts and ends, and the summary table: all but the progress lines are kept.
    let lines: Vec<&str> = stdout.lines().collect();
    let progress = lines.iter().filter(|l| l.starts_with("ProgressSnapshot")).count();
    let out = json!({
        "batches_fnv": child["batches_fnv"],
        "steps": all_losses.len(),
        "loss": loss,
        "epochs": epochs,
        "learner": {
            "labels_seen": child["labels_seen"],
            "files": written.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>(),
            "sizes": written.iter().filter(|(f, _)| !size_varies(f))
                .map(|(f, s)| (f.clone(), json!(s))).collect::<Map<_, _>>(),
            "size_varies": written.iter().filter(|(f, _)| size_varies(f)).map(|(f, _)| f)
                .collect::<Vec<_>>(),
            "stdout_lines": lines.len(),
            "stdout_progress_lines": progress,
            "stdout_first_progress_line": lines.iter().find(|l| l.starts_with("ProgressSnapshot")),
            "stdout_other_lines": lines.iter().filter(|l| !l.starts_with("ProgressSnapshot"))
                .collect::<Vec<_>>(),
            "stderr_lines": stderr.lines().count(),
            "interrupted": child["interrupted"],
        },
        "evaluator": {"test_loss": eval_loss, "accuracy": eval_acc / 100.0,
                      "same_as_valid_epoch3": (eval_loss, eval_acc / 100.0) == valid[EPOCHS - 1]},
        "checkpoint_reloaded": {"test_loss": reloaded.0, "accuracy": reloaded.1},
        "hand_loop": {
            "batches_fnv": fnv1a64(&hand_seen),
            "losses_equal": hand_losses == all_losses,
            "max_loss_diff": max_diff(&hand_losses, &all_losses),
            "epochs": hand_epochs.iter().map(|(l, a)| json!({"test_loss": l, "accuracy": a}))
                .collect::<Vec<_>>(),
        },
        "early_stopping_run": {
            "max_epochs": STOP_MAX_EPOCHS,
            "epochs_run": stop_valid.len(),
            "valid_loss": stop_valid,
            "interrupted": stop["interrupted"],
            "model_checkpoints": stop_checkpoints,
            "log_line": stop_line,
        },
        "seconds": {"child": child_seconds, "fit": child["seconds"]["fit"],
                    "evaluator": child["seconds"]["evaluator"], "hand_loop": hand_seconds},
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
