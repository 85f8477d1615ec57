//! charlm.py ported to burn: a character-level LSTM on the Zen of Python, trained with AdamW
//! and a global gradient-norm clip, then greedy generation on the model without autodiff.
//! Reads the same data/ files as the PyTorch script: zen.txt, init.pt (PyTorch's
//! state_dict; the LSTM's stacked gates are split here) and order.json (the batch order).
use std::collections::BTreeSet;
use std::process::Command;
use std::time::Instant;

use burn::module::{Module, ModuleVisitor, Param};
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig, Lstm, LstmConfig, LstmState};
use burn::optim::{AdamWConfig, GradientsParams};
use burn::prelude::*;
use burn::store::pytorch::PytorchReader;
use burn::store::{ModuleSnapshot, PytorchStore};
use serde_json::{json, Map, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
const SEQ: usize = 32;
const BATCH: usize = 16;
const STEPS: usize = 60;
const EMB: usize = 16;
const HIDDEN: usize = 64;
const VAL_WINDOWS: usize = 4;
const LR: f64 = 1e-2;
const WEIGHT_DECAY: f32 = 0.01;
const MAX_NORM: f32 = 0.25;
const PROMPT: &str = "Beautiful is ";

// region: data
struct Text {
    chars: Vec<char>,
    ids: Vec<i64>,
}

fn load_text() -> Text {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/zen.txt"))
        .expect("read zen.txt");
    let chars: Vec<char> = text.chars().collect::<BTreeSet<_>>().into_iter().collect();
    let ids = text.chars().map(|c| chars.binary_search(&c).unwrap() as i64).collect();
    Text { chars, ids }
}

/// Windows of SEQ ids starting every `stride` ids; the target is the window shifted by one.
struct CharWindows<'a> {
    ids: &'a [i64],
    stride: usize,
}

impl CharWindows<'_> {
    fn len(&self) -> usize {
        (self.ids.len() - SEQ - 1) / self.stride + 1
    }

    /// The windows `idx` stacked into a batch: (inputs, targets), each [len(idx), SEQ].
    fn batch(&self, idx: &[usize], device: &Device) -> (Tensor<2, Int>, Tensor<2, Int>) {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for &i in idx {
            let s = i * self.stride;
            x.extend_from_slice(&self.ids[s..s + SEQ]);
            y.extend_from_slice(&self.ids[s + 1..s + SEQ + 1]);
        }
        let shape = [idx.len(), SEQ];
        (
            Tensor::from_data(TensorData::new(x, shape), device),
            Tensor::from_data(TensorData::new(y, shape), device),
        )
    }
}

/// The last VAL_WINDOWS windows are held out; the training text ends where they begin.
fn split(ids: &[i64]) -> (CharWindows<'_>, CharWindows<'_>) {
    let cut = ids.len() - VAL_WINDOWS * SEQ - 1;
    (CharWindows { ids: &ids[..cut], stride: 1 }, CharWindows { ids: &ids[cut..], stride: SEQ })
}

/// The shuffled window order of each epoch (make_charlm_data.py drew it with torch's RNG).
fn load_order() -> Vec<Vec<usize>> {
    let raw = std::fs::read_to_string(format!("{DATA}/order.json")).expect("read order.json");
    let v: Value = serde_json::from_str(&raw).unwrap();
    v["epochs"].as_array().unwrap().iter()
        .map(|e| e.as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as usize).collect())
        .collect()
}
// endregion: data

// region: model
#[derive(Module, Debug)]
struct CharLm {
    embed: Embedding,
    lstm: Lstm,
    head: Linear,
}

impl CharLm {
    fn init(vocab: usize, device: &Device) -> Self {
        CharLm {
            embed: EmbeddingConfig::new(vocab, EMB).init(device),
            lstm: LstmConfig::new(EMB, HIDDEN, true).init(device), // batch_first by default
            head: LinearConfig::new(HIDDEN, vocab).init(device),
        }
    }

    fn forward(&self, ids: Tensor<2, Int>, state: Option<LstmState<2>>) -> (Tensor<3>, LstmState<2>) {
        let (h, state) = self.lstm.forward(self.embed.forward(ids), state);
        (self.head.forward(h), state)
    }
}
// endregion: model

// region: load
/// One f32 tensor of init.pt, read as PyTorch stored it.
fn pt_tensor<const D: usize>(reader: &PytorchReader, name: &str, device: &Device) -> Tensor<D> {
    let t = reader.get(name).unwrap_or_else(|| panic!("{name} not in init.pt"));
    let bytes = t.read().expect("read tensor");
    let v: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_ne_bytes(b.try_into().unwrap())).collect();
    let shape: [usize; D] = t.shape().try_into().unwrap();
    Tensor::from_data(TensorData::new(v, shape), device)
}

/// init.pt into CharLm: PytorchStore loads embed and head (transposing head.weight); the
/// LSTM's [4H, ...] tensors, stacked in gate order i, f, g, o, are split by hand.
fn load_init(model: &mut CharLm, device: &Device) {
    let path = format!("{DATA}/init.pt");
    let mut store = PytorchStore::from_file(&path).allow_partial(true);
    let result = model.load_from(&mut store).expect("load init.pt");

    let reader = PytorchReader::new(&path).expect("open init.pt");
    let w_ih: Tensor<2> = pt_tensor(&reader, "lstm.weight_ih_l0", device); // [4H, EMB]
    let w_hh: Tensor<2> = pt_tensor(&reader, "lstm.weight_hh_l0", device); // [4H, H]
    let b_ih: Tensor<1> = pt_tensor(&reader, "lstm.bias_ih_l0", device);
    let b_hh: Tensor<1> = pt_tensor(&reader, "lstm.bias_hh_l0", device);
    let gate = |k: usize| {
        let rows = k * HIDDEN..(k + 1) * HIDDEN;
        let linear = |w: &Tensor<2>, b: &Tensor<1>| Linear {
            weight: Param::from_tensor(w.clone().slice([rows.clone()]).transpose()),
            bias: Some(Param::from_tensor(b.clone().slice([rows.clone()]))),
        };
        (linear(&w_ih, &b_ih), linear(&w_hh, &b_hh))
    };
    let lstm = &mut model.lstm;
    (lstm.input_gate.input_transform, lstm.input_gate.hidden_transform) = gate(0);
    let forget = lstm.forget_gate.as_mut().unwrap();
    (forget.input_transform, forget.hidden_transform) = gate(1);
    (lstm.cell_gate.input_transform, lstm.cell_gate.hidden_transform) = gate(2);
    (lstm.output_gate.input_transform, lstm.output_gate.hidden_transform) = gate(3);
    // What PytorchStore could not place: exactly the four stacked LSTM tensors.
    let mut unused = result.unused.clone();
    unused.sort();
    assert_eq!(unused, ["lstm.bias_hh_l0", "lstm.bias_ih_l0", "lstm.weight_hh_l0", "lstm.weight_ih_l0"]);
    assert_eq!((result.applied.len(), result.missing.len()), (3, 16));
}
// endregion: load

// region: clip
/// Adds up the squared norm of every parameter's gradient.
struct SquaredNorm<'a> {
    grads: &'a GradientsParams,
    sum: Option<Tensor<1>>,
}

impl ModuleVisitor for SquaredNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let sq = g.square().sum();
            self.sum = Some(match self.sum.take() {
                Some(s) => s + sq,
                None => sq,
            });
        }
    }
}

/// Multiplies every parameter's gradient by the same factor.
struct Scale<'a> {
    grads: &'a mut GradientsParams,
    coef: Tensor<1>,
}

impl ModuleVisitor for Scale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            self.grads.register(param.id, g * self.coef.clone().unsqueeze::<D>());
        }
    }
}

/// torch.nn.utils.clip_grad_norm_: one norm over all gradients, one factor for all of them
/// (burn's GradientClippingConfig::Norm clips each parameter by its own norm). Returns the
/// total norm before clipping.
fn clip_grad_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    let mut sq = SquaredNorm { grads, sum: None };
    model.visit(&mut sq);
    let Some(total) = sq.sum.map(|s| s.sqrt()) else { return 0.0 };
    let coef = total.clone().add_scalar(1e-6).recip().mul_scalar(max_norm).clamp_max(1.0);
    model.visit(&mut Scale { grads, coef });
    total.into_scalar::<f32>()
}
// endregion: clip

fn fnv1a(data: &[u8], mut h: u64) -> u64 {
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    h
}

fn cross_entropy(logits: Tensor<3>, y: Tensor<2, Int>) -> Tensor<1> {
    let [b, t, v] = logits.dims();
    CrossEntropyLossConfig::new().init(&logits.device()).forward(logits.reshape([b * t, v]), y.reshape([b * t]))
}

/// Mean loss over every position of the held-out windows, on the model without autodiff.
fn evaluate(model: &CharLm, val: &CharWindows, device: &Device) -> f32 {
    let model = model.valid();
    let idx: Vec<usize> = (0..val.len()).collect();
    let (x, y) = val.batch(&idx, device);
    cross_entropy(model.forward(x, None).0, y).into_scalar()
}

/// The logits for the character after `prompt`, on the model without autodiff.
fn next_logits(model: &CharLm, prompt: &str, chars: &[char], device: &Device) -> Tensor<1> {
    let ids: Vec<i64> = prompt.chars().map(|c| chars.binary_search(&c).unwrap() as i64).collect();
    let n = ids.len();
    let (logits, _) = model.valid().forward(Tensor::from_data(TensorData::new(ids, [1, n]), device), None);
    let v = logits.dims()[2];
    logits.slice(s![0, n - 1, ..]).reshape([v])
}

fn floats(t: Tensor<1>) -> Value {
    json!(t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect::<Vec<_>>())
}

fn steps(v: &[f32]) -> Value {
    let m: Map<String, Value> = v.iter().enumerate()
        .map(|(k, x)| (format!("step{:03}", k + 1), json!(f64::from(*x))))
        .collect();
    Value::Object(m)
}

fn main() {
    let device = Device::flex().autodiff();
    let plain = device.clone().inner(); // the same Flex device, without autodiff
    let text = load_text();
    let (train, val) = split(&text.ids);
    let order = load_order();

    let mut model = CharLm::init(text.chars.len(), &device);
    load_init(&mut model, &device);
    let logits_init = next_logits(&model, PROMPT, &text.chars, &plain);
    let val_loss_init = evaluate(&model, &val, &plain);

    // region: loss_optim
    let mut optimizer = AdamWConfig::new()
        .with_beta_1(0.9)
        .with_beta_2(0.999)
        .with_epsilon(1e-8) // burn's default is 1e-5
        .with_weight_decay(WEIGHT_DECAY) // burn's default is 1e-4
        .init(); // no grad_clipping here: clip_grad_norm below clips the global norm
    // endregion: loss_optim

    // region: loop
    let (mut losses, mut norms) = (Vec::new(), Vec::new());
    let (mut seen, mut n_seen) = (fnv1a(b"", 0xcbf29ce484222325), 0);
    let start = Instant::now();
    let batches = order.iter().flat_map(|epoch| epoch.chunks_exact(BATCH)); // drop_last
    for idx in batches.take(STEPS) {
        let (x, y) = train.batch(idx, &device);
        let targets: String = y.to_data().iter::<i64>().map(|t| text.chars[t as usize]).collect();
        let loss = cross_entropy(model.forward(x, None).0, y);
        let mut grads = GradientsParams::from_grads(loss.backward(), &model);
        let norm = clip_grad_norm(&model, &mut grads, MAX_NORM);
        model = optimizer.step(LR, model, grads);
        losses.push(loss.into_scalar::<f32>());
        norms.push(norm);
        seen = fnv1a(targets.as_bytes(), seen);
        n_seen += targets.chars().count();
    }
    let seconds = start.elapsed().as_secs_f64();
    // endregion: loop

    let val_loss = evaluate(&model, &val, &plain);

    // region: checkpoint
    // valid() first, then save; a second program, without autodiff, loads it and generates
    // (crates/cap-charlm-generate).
    model.valid().save_file("charlm.bpk").expect("save charlm.bpk");
    let exe = std::env::current_exe().unwrap().with_file_name("cap-charlm-generate");
    let run = Command::new(&exe).arg("charlm.bpk").output().expect("run cap-charlm-generate");
    assert!(run.status.success(), "cap-charlm-generate: {}", String::from_utf8_lossy(&run.stderr));
    let generated: Value = serde_json::from_slice(&run.stdout).expect("cap-charlm-generate's JSON");
    // endregion: checkpoint

    let result = json!({
        "config": {"steps": STEPS, "batch": BATCH, "seq": SEQ, "max_norm": f64::from(MAX_NORM), "prompt": PROMPT},
        "vocab": text.chars.iter().collect::<String>(),
        "windows": {"train": train.len(), "val": val.len()},
        "targets": {"count": n_seen, "fnv1a": format!("{seen:016x}")},
        "loss": steps(&losses),
        "grad_norm": steps(&norms),
        "logits_init": floats(logits_init),
        "val_loss_init": f64::from(val_loss_init),
        "final_loss": f64::from(val_loss),
        "final_ppl": f64::from(val_loss).exp(),
        "logits0": generated["logits0"],
        "generated": generated["generated"],
        "gen_min_margin": generated["gen_min_margin"],
        "seconds": seconds,
    });
    println!("{}", serde_json::to_string_pretty(&result).unwrap());
}
