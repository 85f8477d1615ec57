//! burn-train's data-parallel route without collectives: the Learner with
//! ExecutionStrategy::multi. Run as a child (`cap-gpt-ddp --route multi DIV`): the Learner
//! prints its progress on stdout, so the child writes what it saw to `multi-DIV.json`.
use std::sync::{Arc, Mutex};

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::InMemDataset;
use burn::lr_scheduler::module_lr_scheduler::ModuleLearningRate;
use burn::lr_scheduler::{LrScheduler, LrSchedulerRecord};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::train::{
    ExecutionStrategy, InferenceStep, Learner, MultiDeviceOptim, SupervisedTraining, TrainOutput,
    TrainStep,
};
use serde_json::{json, Value};

use crate::gpt::{clip_grad_norm, cross_entropy, get_lr, load_data, optimizer, Data, Gpt, CLIP, DDP_STEPS, MICRO};

/// One window of the text, tagged with the step and the rank (micro-batch) it belongs to.
#[derive(Clone, Debug)]
struct Window {
    step: usize,
    rank: usize,
    offset: usize,
}

#[derive(Clone, Debug)]
struct GptBatch {
    x: Tensor<2, Int>,
    y: Tensor<2, Int>,
    step: usize,
    rank: usize,
}

#[derive(Clone)]
struct WindowBatcher(Arc<Vec<i64>>);

impl Batcher<Window, GptBatch> for WindowBatcher {
    fn batch(&self, items: Vec<Window>, device: &Device) -> GptBatch {
        let (step, rank) = (items[0].step, items[0].rank);
        assert!(items.iter().all(|w| (w.step, w.rank) == (step, rank)), "a batch mixes micro-batches");
        let offsets: Vec<usize> = items.iter().map(|w| w.offset).collect();
        let (x, y) = crate::gpt::batch(&self.0, &offsets, device);
        GptBatch { x, y, step, rank }
    }
}

// region: loader
/// multi cuts the training set into one contiguous slice per device (split_dataloader):
/// device 0 takes the first half of the items, device 1 the second. So the set is laid out
/// as rank 0's micro-batches of steps 1..10, then rank 1's: at step k device r gets the batch
/// rank r gets under DDP.
fn train_loader(data: &Data) -> Arc<dyn DataLoader<GptBatch>> {
    let mut windows = Vec::new();
    for rank in 0..2 {
        for step in 0..DDP_STEPS {
            assert_eq!(data.order[step][rank].len(), MICRO);
            windows.extend(data.order[step][rank].iter().map(|&offset| Window { step, rank, offset }));
        }
    }
    DataLoaderBuilder::new(WindowBatcher(Arc::new(data.ids.clone())))
        .batch_size(MICRO)
        .build(InMemDataset::new(windows))
}
// endregion: loader

/// The Learner validates after each epoch: one micro-batch, which changes nothing.
fn valid_loader(data: &Data) -> Arc<dyn DataLoader<GptBatch>> {
    let windows = data.order[0][0].iter().map(|&offset| Window { step: 0, rank: 0, offset }).collect();
    DataLoaderBuilder::new(WindowBatcher(Arc::new(data.ids.clone())))
        .batch_size(MICRO)
        .build(InMemDataset::new(windows))
}

enum Event {
    Batch { step: usize, rank: usize, loss: f32 },
    Optimize { norm: f32 },
}

/// What TrainStep and optimize saw, in the order they ran: the Learner hands their outputs
/// only to its metrics.
static EVENTS: Mutex<Vec<Event>> = Mutex::new(Vec::new());

// region: step
/// What the Learner trains: the GPT, and what each device divides its loss by before the
/// backward pass (1: the TrainStep as written for one device).
#[derive(Module, Debug)]
struct Replica {
    gpt: Gpt,
    loss_div: usize,
}

impl TrainStep for Replica {
    type Input = GptBatch;
    type Output = ();

    /// Runs on each device's worker thread, on its own micro-batch.
    fn step(&self, batch: GptBatch) -> TrainOutput<()> {
        let loss = cross_entropy(self.gpt.forward(batch.x), batch.y);
        let (step, rank) = (batch.step, batch.rank);
        EVENTS.lock().unwrap().push(Event::Batch { step, rank, loss: loss.clone().into_scalar() });
        let grads = loss.div_scalar(self.loss_div as f64).backward();
        TrainOutput::new(self, grads, ())
    }

    /// Once per step, with the devices' gradients added up (OptimMainDevice): gpt.py's
    /// global-norm clipping, then AdamW. The Learner's optimizer has no global-norm clipping.
    fn optimize(self, optim: &mut ModuleOptimizer, lr: ModuleLearningRate, mut grads: GradientsParams) -> Self {
        let norm = clip_grad_norm(&self, &mut grads, CLIP);
        EVENTS.lock().unwrap().push(Event::Optimize { norm });
        optim.step(lr, self, grads)
    }
}
// endregion: step

impl InferenceStep for Replica {
    type Input = GptBatch;
    type Output = ();

    fn step(&self, batch: GptBatch) {
        let _ = cross_entropy(self.gpt.forward(batch.x), batch.y);
    }
}

/// gpt.py's get_lr; the Learner steps it once before each optimizer step.
#[derive(Clone)]
struct GptLr(usize);

impl LrScheduler for GptLr {
    fn step(&mut self) -> f64 {
        self.0 += 1;
        get_lr(self.0 - 1)
    }

    fn to_record(&self) -> LrSchedulerRecord {
        LrSchedulerRecord::new()
    }

    fn load_record(&mut self, _record: LrSchedulerRecord) {}
}

/// The child: one epoch (the 10 steps) with the Learner on two devices.
pub fn fit(loss_div: usize) {
    let data = load_data();
    let gpt = Gpt::load(data.vocab, &Device::flex().autodiff());
    let optim = optimizer(&gpt);
    // region: multi
    let devices = vec![Device::flex(), Device::flex()]; // the one Flex device, twice
    let strategy = ExecutionStrategy::multi(devices, MultiDeviceOptim::OptimMainDevice);
    let learner = Learner::new(Replica { gpt, loss_div }, optim, GptLr(0));
    let result = SupervisedTraining::new(format!("learner-{loss_div}"), train_loader(&data), valid_loader(&data))
        .with_training_strategy(strategy.into())
        .num_epochs(1)
        .launch(learner);
    // endregion: multi

    // Group the events by optimizer step; each step should hold rank 0's and rank 1's
    // micro-batch of that step, in either order (two worker threads).
    let events = std::mem::take(&mut *EVENTS.lock().unwrap());
    let (mut loss, mut norm, mut pending) = (Vec::new(), Vec::new(), Vec::new());
    let mut as_ddp = true;
    for event in events {
        match event {
            Event::Batch { step, rank, loss } => pending.push((rank, step, loss)),
            Event::Optimize { norm: n } => {
                pending.sort_by_key(|&(rank, _, _)| rank);
                let step = norm.len();
                as_ddp &= pending.iter().map(|&(r, s, _)| (r, s)).eq([(0, step), (1, step)]);
                // The global batch's loss as cap-gpt --replicas adds it up: rank 0, then rank 1.
                loss.push(pending.iter().map(|&(_, _, l)| f64::from(l) / 2.0).fold(0.0, |a, b| a + b));
                norm.push(n);
                pending.clear();
            }
        }
    }
    let steps = |v: Vec<f64>| -> Value {
        v.iter().enumerate().map(|(k, x)| (format!("step{:03}", k + 1), json!(x))).collect::<serde_json::Map<_, _>>().into()
    };
    let out = json!({
        "error": result.error.map(|e| e.to_string()),
        "optimizer_steps": norm.len(),
        "batches_as_ddp": as_ddp && pending.is_empty(),
        "loss": steps(loss),
        "grad_norm": steps(norm.into_iter().map(f64::from).collect()),
    });
    std::fs::write(format!("multi-{loss_div}.json"), out.to_string()).expect("write the child's result");
}
