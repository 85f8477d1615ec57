//! gpt.py ported to burn: a small GPT on the Zen of Python with weight tying, AdamW in two
//! parameter groups, warmup + cosine, gradient accumulation and global-norm clipping; a
//! checkpoint at step RESUME_AT is resumed in a fresh process (this program, `--resume`),
//! and a second program without autodiff (cap-gpt-generate) samples from the final weights.
//! Reads the same data/ files as the PyTorch script: zen.txt, init.pt, order.json.
use std::collections::BTreeSet;
use std::process::Command;
use std::time::Instant;

use burn::module::{Module, ModuleVisitor, Param, ParamGroup, ParamId};
use burn::nn::{Dropout, DropoutConfig, Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::optim::{AdamWConfig, GradientsAccumulator, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::store::bridge::to_data;
use burn::store::{ModuleSnapshot, PytorchStore};
use burn::tensor::activation::{gelu, log_softmax, softmax};
use burn::tensor::DType;
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use serde_json::{json, Map, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

// region: config
const N_LAYER: usize = 2;
const N_HEAD: usize = 4;
const N_EMBD: usize = 64;
const BLOCK: usize = 32;
const MICRO: usize = 8;
const ACCUM: usize = 2;
const STEPS: usize = 100;
const WARMUP: usize = 10;
const MAX_LR: f64 = 3e-3;
const MIN_LR: f64 = 3e-4;
const WEIGHT_DECAY: f32 = 0.1;
const CLIP: f32 = 1.0;
const RESUME_AT: usize = 60;
const DROPOUT_RUN: f64 = 0.1; // a second run, compared on its final results only
const SEED: u64 = 1337;
// endregion: config
/// The steps cap-gpt-ddp compares (`--replicas`).
const DDP_STEPS: usize = 10;

// region: data
/// Windows of BLOCK ids at `offsets`; the target is the window shifted by one. A window that
/// runs past the end of the text is padded: input 0, target -1 (ignored by the loss).
fn batch(ids: &[i64], offsets: &[usize], device: &Device) -> (Tensor<2, Int>, Tensor<2, Int>) {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for &o in offsets {
        for i in o..o + BLOCK {
            x.push(ids.get(i).copied().unwrap_or(0));
            y.push(ids.get(i + 1).copied().unwrap_or(-1));
        }
    }
    let shape = [offsets.len(), BLOCK];
    (Tensor::from_data(TensorData::new(x, shape), device), Tensor::from_data(TensorData::new(y, shape), device))
}
// endregion: data

// region: attention_module
#[derive(Module, Debug)]
struct CausalSelfAttention {
    c_attn: Linear,
    c_proj: Linear,
    attn_dropout: Dropout,
    resid_dropout: Dropout,
}

impl CausalSelfAttention {
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [b, t, c] = x.dims();
        let qkv = self.c_attn.forward(x);
        let head = |i: usize| {
            qkv.clone().slice(s![.., .., i * c..(i + 1) * c]).reshape([b, t, N_HEAD, c / N_HEAD]).swap_dims(1, 2)
        };
        let (q, k, v) = (head(0), head(1), head(2));
        let y = if self.attn_dropout.prob == 0.0 {
            let causal = AttentionModuleOptions { is_causal: true, ..Default::default() };
            attention(q, k, v, None, None, causal) // burn's attention() has no dropout argument
        } else {
            // With dropout on the attention weights: the masked softmax written out.
            let att = q.matmul(k.swap_dims(2, 3)) / ((c / N_HEAD) as f64).sqrt();
            let future = Tensor::<2, Bool>::tril_mask([t, t], 0, &att.device()); // true above the diagonal
            let att = att.mask_fill(future.unsqueeze::<4>().expand([b, N_HEAD, t, t]), f32::NEG_INFINITY);
            self.attn_dropout.forward(softmax(att, 3)).matmul(v)
        };
        self.resid_dropout.forward(self.c_proj.forward(y.swap_dims(1, 2).reshape([b, t, c])))
    }
}
// endregion: attention_module

// region: model
#[derive(Module, Debug)]
struct Mlp {
    c_fc: Linear,
    c_proj: Linear,
    dropout: Dropout,
}

#[derive(Module, Debug)]
struct Block {
    ln_1: LayerNorm,
    attn: CausalSelfAttention,
    ln_2: LayerNorm,
    mlp: Mlp,
}

impl Block {
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let x = x.clone() + self.attn.forward(self.ln_1.forward(x));
        let h = self.mlp.c_fc.forward(self.ln_2.forward(x.clone()));
        x + self.mlp.dropout.forward(self.mlp.c_proj.forward(gelu(h))) // burn's gelu is exact (erf), as nn.GELU()
    }
}

/// No lm_head field: the output projection multiplies by wte's own weight (weight tying).
#[derive(Module, Debug)]
struct Gpt {
    wte: Embedding,
    wpe: Embedding,
    drop: Dropout,
    h: Vec<Block>,
    ln_f: LayerNorm,
}

impl Gpt {
    fn init(vocab: usize, dropout: f64, device: &Device) -> Self {
        let linear = |i, o| LinearConfig::new(i, o).init(device);
        let drop = || DropoutConfig::new(dropout).init();
        let block = || Block {
            ln_1: LayerNormConfig::new(N_EMBD).init(device),
            attn: CausalSelfAttention {
                c_attn: linear(N_EMBD, 3 * N_EMBD), c_proj: linear(N_EMBD, N_EMBD),
                attn_dropout: drop(), resid_dropout: drop(),
            },
            ln_2: LayerNormConfig::new(N_EMBD).init(device),
            mlp: Mlp { c_fc: linear(N_EMBD, 4 * N_EMBD), c_proj: linear(4 * N_EMBD, N_EMBD), dropout: drop() },
        };
        Gpt {
            wte: EmbeddingConfig::new(vocab, N_EMBD).init(device),
            wpe: EmbeddingConfig::new(BLOCK, N_EMBD).init(device),
            drop: drop(),
            h: (0..N_LAYER).map(|_| block()).collect(),
            ln_f: LayerNormConfig::new(N_EMBD).init(device),
        }
    }

    fn forward(&self, idx: Tensor<2, Int>) -> Tensor<3> {
        let t = idx.dims()[1];
        let pos = Tensor::<1, Int>::arange(0..t as i64, &idx.device()).unsqueeze::<2>();
        let mut x = self.drop.forward(self.wte.forward(idx) + self.wpe.forward(pos));
        for block in &self.h {
            x = block.forward(x);
        }
        let w = self.wte.weight.val(); // [vocab, n_embd]
        self.ln_f.forward(x).matmul(w.transpose().unsqueeze::<3>())
    }
}
// endregion: model

// region: autocast_model
/// torch.autocast("cpu", dtype=torch.bfloat16) on this model, written out: every Linear (and
/// the tied output projection) and the attention take bf16 operands and give a bf16 result;
/// GELU runs on that bf16; the embeddings, the residual stream, LayerNorm and the loss stay
/// f32. burn has no autocast, and never adds a bf16 tensor to an f32 one by itself.
fn linear_bf16(l: &Linear, x: Tensor<3>) -> Tensor<3> {
    let w = l.weight.val().cast(DType::BF16);
    let b = l.bias.as_ref().map(|b| b.val().cast(DType::BF16));
    burn::tensor::module::linear(x.cast(DType::BF16), w, b)
}

impl Gpt {
    fn forward_bf16(&self, idx: Tensor<2, Int>) -> Tensor<3> {
        let [b, t] = idx.dims();
        let pos = Tensor::<1, Int>::arange(0..t as i64, &idx.device()).unsqueeze::<2>();
        let mut x = self.wte.forward(idx) + self.wpe.forward(pos); // f32
        for block in &self.h {
            let qkv = linear_bf16(&block.attn.c_attn, block.ln_1.forward(x.clone()));
            let head = |i: usize| {
                qkv.clone().slice(s![.., .., i * N_EMBD..(i + 1) * N_EMBD]).reshape([b, t, N_HEAD, N_EMBD / N_HEAD]).swap_dims(1, 2)
            };
            let causal = AttentionModuleOptions { is_causal: true, ..Default::default() };
            let y = attention(head(0), head(1), head(2), None, None, causal).swap_dims(1, 2).reshape([b, t, N_EMBD]);
            x = x + linear_bf16(&block.attn.c_proj, y).cast(DType::F32);
            let h = gelu(linear_bf16(&block.mlp.c_fc, block.ln_2.forward(x.clone())));
            x = x + linear_bf16(&block.mlp.c_proj, h).cast(DType::F32);
        }
        let w = self.wte.weight.val().cast(DType::BF16);
        self.ln_f.forward(x).cast(DType::BF16).matmul(w.transpose().unsqueeze::<3>()) // bf16 logits
    }
}
// endregion: autocast_model

// region: loss
/// F.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-1): the mean over
/// the targets that are not -1. burn's CrossEntropyLoss takes pad tokens as usize class ids,
/// which cannot say -1, so the masked mean is written out.
fn cross_entropy(logits: Tensor<3>, targets: Tensor<2, Int>) -> Tensor<1> {
    let [b, t, v] = logits.dims();
    let targets = targets.reshape([b * t]);
    let keep = targets.clone().greater_equal_elem(0).float();
    let logp = log_softmax(logits.reshape([b * t, v]), 1);
    let picked = logp.gather(1, targets.clamp_min(0).unsqueeze_dim(1)).reshape([b * t]);
    (picked * keep.clone()).sum().neg() / keep.sum()
}
// endregion: loss

// region: optim
/// The ids of the parameters that do not decay: the 1-D ones (biases, LayerNorm), as
/// configure_optimizer splits them. The 2-D weights, the tied wte among them, decay.
struct NoDecay(Vec<ParamId>);

impl ModuleVisitor for NoDecay {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if D < 2 {
            self.0.push(param.id);
        }
    }
}

/// One ModuleOptimizer, two groups: the first AdamW (decay 0.1) covers every parameter, the
/// group of 1-D parameters overrides it with an AdamW without decay.
fn optimizer(model: &Gpt) -> ModuleOptimizer {
    let adamw = |wd: f32| AdamWConfig::new().with_beta_1(0.9).with_beta_2(0.95).with_epsilon(1e-8).with_weight_decay(wd);
    let mut no_decay = NoDecay(Vec::new());
    model.visit(&mut no_decay);
    adamw(WEIGHT_DECAY).init().with_group(ParamGroup::from_ids(no_decay.0), adamw(0.0).build(), None)
}
// endregion: optim

// region: lr
/// Linear warmup to MAX_LR over WARMUP steps, then cosine decay to MIN_LR at STEPS.
fn get_lr(step: usize) -> f64 {
    if step < WARMUP {
        return MAX_LR * (step + 1) as f64 / WARMUP as f64;
    }
    let ratio = (step - WARMUP) as f64 / (STEPS - WARMUP) as f64;
    MIN_LR + 0.5 * (1.0 + (std::f64::consts::PI * ratio).cos()) * (MAX_LR - MIN_LR)
}
// endregion: lr

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

/// torch.nn.utils.clip_grad_norm_: one norm over all gradients, one factor for all of them.
/// Returns the total norm before clipping.
fn clip_grad_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    let mut sq = SquaredNorm { grads, sum: None };
    model.visit(&mut sq);
    let Some(total) = sq.sum.map(|s| s.sqrt()) else { return 0.0 };
    let coef = total.clone().add_scalar(1e-6).recip().mul_scalar(max_norm).clamp_max(1.0);
    model.visit(&mut Scale { grads, coef });
    total.into_scalar::<f32>()
}
// endregion: clip

#[derive(Default)]
struct Record {
    loss: Vec<f64>,
    lr: Vec<f64>,
    grad_norm: Vec<f32>,
}

// region: train
/// Optimizer steps first..last (0-based). The tied wte gets one gradient: the sum of what its
/// two uses (lookup and output projection) send back.
fn train(mut model: Gpt, optim: &mut ModuleOptimizer, data: &Data, first: usize, last: usize, save_at: Option<usize>) -> (Gpt, Record) {
    let device = model.wte.weight.device();
    let mut rec = Record::default();
    for step in first..last {
        let lr = get_lr(step);
        let mut acc = GradientsAccumulator::new();
        let mut total = 0.0;
        for micro in 0..ACCUM {
            let (x, y) = batch(&data.ids, &data.order[step][micro], &device);
            let loss = cross_entropy(model.forward(x), y);
            total += f64::from(loss.clone().into_scalar::<f32>()) / ACCUM as f64;
            let grads = loss.div_scalar(ACCUM as f64).backward(); // gradients add up
            acc.accumulate(&model, GradientsParams::from_grads(grads, &model));
        }
        let mut grads = acc.grads();
        let norm = clip_grad_norm(&model, &mut grads, CLIP);
        model = optim.step(lr, model, grads);
        rec.loss.push(total);
        rec.lr.push(lr);
        rec.grad_norm.push(norm);
        if save_at == Some(step + 1) {
            save_checkpoint("ckpt", &model, optim, step + 1, data.vocab.len());
        }
    }
    (model, rec)
}
// endregion: train

// region: checkpoint
/// Model, optimizer state, step and config, in one folder.
fn save_checkpoint(dir: &str, model: &Gpt, optim: &ModuleOptimizer, step: usize, vocab: usize) {
    std::fs::create_dir_all(dir).unwrap();
    model.clone().save_file(format!("{dir}/model.bpk")).expect("save model"); // keeps ParamIds
    optim.save(format!("{dir}/optim.bpk")).expect("save optimizer"); // states by ParamId
    let meta = json!({"step": step, "config": {"n_layer": N_LAYER, "n_head": N_HEAD, "n_embd": N_EMBD, "block": BLOCK, "vocab": vocab}});
    std::fs::write(format!("{dir}/meta.json"), meta.to_string()).unwrap();
}

/// Run in a fresh process: load everything the checkpoint holds and train to the end.
fn resume(dir: &str) {
    let device = Device::flex().autodiff();
    let data = load_data();
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(format!("{dir}/meta.json")).unwrap()).unwrap();
    let vocab = meta["config"]["vocab"].as_u64().unwrap() as usize;
    let model = Gpt::init(vocab, 0.0, &device).load_file(format!("{dir}/model.bpk")); // the saved ParamIds
    let mut optim = optimizer(&model).load(format!("{dir}/optim.bpk")).expect("load optimizer");
    let step = meta["step"].as_u64().unwrap() as usize;
    let (model, rec) = train(model, &mut optim, &data, step, STEPS, None);
    model.save_file("resumed.bpk").expect("save resumed model");
    // f64 bit patterns: serde_json's default parser may round a float's last bit.
    let bits: Vec<u64> = rec.loss.iter().map(|x| x.to_bits()).collect();
    println!("{}", json!({"loss_bits": bits}));
}
// endregion: checkpoint

struct Data {
    vocab: Vec<char>,
    ids: Vec<i64>,
    order: Vec<Vec<Vec<usize>>>,
}

fn load_data() -> Data {
    let text = std::fs::read_to_string(format!("{DATA}/zen.txt")).expect("read zen.txt");
    let vocab: Vec<char> = text.chars().collect::<BTreeSet<_>>().into_iter().collect();
    let ids = text.chars().map(|c| vocab.binary_search(&c).unwrap() as i64).collect();
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/order.json")).unwrap()).unwrap();
    let order = serde_json::from_value(raw["steps"].clone()).expect("order.json");
    Data { vocab, ids, order }
}

// region: load
/// init.pt into Gpt. PytorchStore transposes the Linear weights and renames LayerNorm's
/// weight/bias to gamma/beta; lm_head.weight, the tied copy of wte.weight, has no place.
fn load_init(model: &mut Gpt) {
    let mut store = PytorchStore::from_file(format!("{DATA}/init.pt")).allow_partial(true);
    let result = model.load_from(&mut store).expect("load init.pt");
    assert_eq!(result.unused, ["lm_head.weight"], "what init.pt holds that the model has no place for");
    assert!(result.missing.is_empty(), "not in init.pt: {:?}", result.missing);
}
// endregion: load

/// Each parameter by PyTorch name: its L2 norm and every 97th value in PyTorch's layout (a
/// Linear weight transposed back to [out, in]). c_attn.bias is split into its q, k, v thirds;
/// the k thirds, whose gradient is only rounding noise, are returned apart.
// region: evaluate
/// The mean loss over fixed windows (every 53rd offset, none padded), without autodiff.
fn evaluate(model: &Gpt, ids: &[i64]) -> f32 {
    let offsets: Vec<usize> = (0..ids.len() - BLOCK - 1).step_by(53).collect();
    let (x, y) = batch(ids, &offsets, &Device::flex());
    cross_entropy(model.valid().forward(x), y).into_scalar()
}
// endregion: evaluate

fn summary(model: &Gpt) -> (Value, Value) {
    let (mut out, mut key_bias) = (Map::new(), Map::new());
    for snap in model.collect(None, None, false) {
        let name = snap.name.replace(".gamma", ".weight").replace(".beta", ".bias");
        let data = to_data(&snap).unwrap();
        let w: Vec<f32> = match *snap.shape.as_slice() {
            [i, o] if !name.starts_with("wte") && !name.starts_with("wpe") => {
                Tensor::<2>::from_data(data, &Device::flex()).transpose().reshape([i * o]).into_data().try_to_vec().unwrap()
            }
            _ => data.try_to_vec().unwrap(),
        };
        let parts: Vec<(String, &[f32])> = if name.ends_with("c_attn.bias") {
            ["q", "k", "v"].iter().zip(w.chunks(N_EMBD)).map(|(p, c)| (format!("{name}.{p}"), c)).collect()
        } else {
            vec![(name.clone(), &w[..])]
        };
        for (key, v) in parts {
            let t = Tensor::<1>::from_data(TensorData::new(v.to_vec(), [v.len()]), &Device::flex());
            let norm = t.square().sum().sqrt().into_scalar::<f32>();
            let every97: Vec<f64> = v.iter().step_by(97).map(|&x| f64::from(x)).collect();
            let target = if key.ends_with(".k") { &mut key_bias } else { &mut out };
            target.insert(key, json!({"norm": f64::from(norm), "every97": every97}));
        }
    }
    (Value::Object(out), Value::Object(key_bias))
}

fn weights(model: &Gpt) -> Vec<(String, Vec<f32>)> {
    model.collect(None, None, false).iter()
        .map(|s| (s.name.clone(), to_data(s).unwrap().try_to_vec().unwrap()))
        .collect()
}

fn steps<T: Copy + Into<f64>>(v: &[T], first: usize) -> Value {
    let m: Map<String, Value> = v.iter().enumerate()
        .map(|(k, x)| (format!("step{:03}", first + k + 1), json!((*x).into())))
        .collect();
    Value::Object(m)
}

fn run(exe: &str, args: &[&str]) -> Value {
    let path = std::env::current_exe().unwrap().with_file_name(exe);
    let out = Command::new(&path).args(args).output().unwrap_or_else(|e| panic!("run {exe}: {e}"));
    assert!(out.status.success(), "{exe}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{exe}'s JSON: {e}"))
}

// region: replicas
/// What DDP computes, on the one Flex device: two replicas of the model (clones: the same
/// parameters, the same ParamIds), each on half of the global batch (one micro-batch); their
/// gradients are summed by the accumulator and halved (an all-reduce with Mean), then clipped,
/// then one optimizer step on the model.
fn replicas(data: &Data, model: &mut Gpt, optim: &mut ModuleOptimizer) -> Record {
    let device = model.wte.weight.device();
    let half = Tensor::<1>::from_floats([0.5], &device.clone().inner());
    let mut rec = Record::default();
    for step in 0..DDP_STEPS {
        let mut acc = GradientsAccumulator::new();
        let mut total = 0.0;
        for rank in 0..2 {
            let replica = model.clone();
            let (x, y) = batch(&data.ids, &data.order[step][rank], &device);
            let loss = cross_entropy(replica.forward(x), y);
            total += f64::from(loss.clone().into_scalar::<f32>()) / 2.0;
            acc.accumulate(&replica, GradientsParams::from_grads(loss.backward(), &replica));
        }
        let mut grads = acc.grads();
        model.visit(&mut Scale { grads: &mut grads, coef: half.clone() }); // the mean
        let norm = clip_grad_norm(model, &mut grads, CLIP);
        *model = optim.step(get_lr(step), model.clone(), grads);
        rec.loss.push(total);
        rec.lr.push(get_lr(step));
        rec.grad_norm.push(norm);
    }
    rec
}
// endregion: replicas

/// `cap-gpt --replicas`: the first DDP_STEPS steps as gpt.py trains them (accumulation) and as
/// DDP would (two replicas, averaged), for cap-gpt-ddp.
fn replicas_main() {
    let device = Device::flex().autodiff();
    let data = load_data();
    let fresh = || {
        let mut m = Gpt::init(data.vocab.len(), 0.0, &device);
        load_init(&mut m);
        m
    };
    let single_model = fresh();
    let mut optim = optimizer(&single_model);
    let (single_model, single) = train(single_model, &mut optim, &data, 0, DDP_STEPS, None);
    let mut ddp_model = fresh();
    let mut optim = optimizer(&ddp_model);
    let ddp = replicas(&data, &mut ddp_model, &mut optim);
    let max_diff = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
    let weights_diff = weights(&single_model).iter().zip(weights(&ddp_model).iter())
        .map(|((_, a), (_, b))| max_diff(a, b)).fold(0.0, f32::max);
    let loss_diff = single.loss.iter().zip(&ddp.loss).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    println!("{}", json!({
        "steps": DDP_STEPS,
        "single": {"loss": steps(&single.loss, 0), "grad_norm": steps(&single.grad_norm, 0)},
        "ddp": {"loss": steps(&ddp.loss, 0), "grad_norm": steps(&ddp.grad_norm, 0)},
        "ddp_vs_single_loss": loss_diff,
        "ddp_vs_single_weights": f64::from(weights_diff),
    }));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--resume") => return resume(&args[2]),
        Some("--replicas") => return replicas_main(),
        _ => {}
    }
    let device = Device::flex().autodiff();
    let data = load_data();

    let mut model = Gpt::init(data.vocab.len(), 0.0, &device);
    load_init(&mut model);
    let (x0, y0) = batch(&data.ids, &data.order[0][0], &device);
    let logits0 = model.valid().forward(x0.clone().inner());
    let loss0 = cross_entropy(logits0.clone(), y0.clone().inner()).into_scalar::<f32>();
    // region: autocast
    let logits_bf16 = model.valid().forward_bf16(x0.clone().inner());
    let loss_bf16 = cross_entropy(logits_bf16.clone().cast(DType::F32), y0.clone().inner()); // f32, as autocast does
    // endregion: autocast
    let dtype_name = |d: DType| match d { DType::BF16 => "bfloat16", DType::F32 => "float32", _ => "other" };
    let autocast = json!({
        "logits_dtype": dtype_name(logits_bf16.dtype()), "loss_dtype": dtype_name(loss_bf16.dtype()),
        "loss": f64::from(loss_bf16.into_scalar::<f32>()),
        "logits": logits_bf16.clone().cast(DType::F32).slice(s![0, BLOCK - 1, ..]).into_data().iter::<f32>().map(f64::from).collect::<Vec<_>>(),
        "max_off_f32": f64::from((logits_bf16.cast(DType::F32) - logits0.clone()).abs().max().into_scalar::<f32>()),
    });
    // region: key_bias
    // The largest gradient of c_attn.bias's q, k and v thirds, over the blocks.
    let grads = GradientsParams::from_grads(cross_entropy(model.forward(x0), y0).backward(), &model);
    let bias_grad: Map<String, Value> = ["q", "k", "v"].iter().enumerate().map(|(i, part)| {
        let max = model.h.iter().map(|b| {
            let g = grads.get::<1>(b.attn.c_attn.bias.as_ref().unwrap().id).unwrap();
            g.slice(i * N_EMBD..(i + 1) * N_EMBD).abs().max().into_scalar::<f32>()
        }).fold(0.0, f32::max);
        (part.to_string(), json!(f64::from(max)))
    }).collect();
    // endregion: key_bias
    let last0: Vec<f32> = logits0.slice(s![0, BLOCK - 1, ..]).into_data().try_to_vec().unwrap();

    let mut optim = optimizer(&model);
    let start = Instant::now();
    let (model, rec) = train(model, &mut optim, &data, 0, STEPS, Some(RESUME_AT));
    let seconds = start.elapsed().as_secs_f64();

    // region: resume_run
    let resumed = run("cap-gpt", &["--resume", "ckpt"]);
    let after = Gpt::init(data.vocab.len(), 0.0, &device).load_file("resumed.bpk");
    let same_weights = weights(&after) == weights(&model);
    let bits: Vec<u64> = serde_json::from_value(resumed["loss_bits"].clone()).unwrap();
    let resumed_loss: Vec<f64> = bits.into_iter().map(f64::from_bits).collect();
    // endregion: resume_run

    let eval_loss = evaluate(&model, &data.ids);
    model.valid().save_file("gpt.bpk").expect("save gpt.bpk");
    let sample = run("cap-gpt-generate", &["gpt.bpk"]);

    // region: dropout_run
    device.seed(SEED); // the dropout masks come from burn's RNG, not torch's
    let mut dropped = Gpt::init(data.vocab.len(), DROPOUT_RUN, &device);
    load_init(&mut dropped);
    let mut optim = optimizer(&dropped);
    let (dropped, dropped_rec) = train(dropped, &mut optim, &data, 0, STEPS, None);
    // endregion: dropout_run
    let ckpt = Gpt::init(data.vocab.len(), 0.0, &device).load_file("ckpt/model.bpk");
    let ignored: usize = data.order.iter().flatten()
        .map(|o| batch(&data.ids, o, &device).1.lower_elem(0).int().sum().into_scalar::<i64>() as usize)
        .sum();
    let (weights_end, key_bias) = summary(&model);
    let result = json!({
        "config": {"n_layer": N_LAYER, "n_head": N_HEAD, "n_embd": N_EMBD, "block": BLOCK,
                   "micro": MICRO, "accum": ACCUM, "steps": STEPS, "clip": f64::from(CLIP),
                   "warmup": WARMUP, "max_lr": MAX_LR, "min_lr": MIN_LR},
        "vocab": data.vocab.iter().collect::<String>(),
        "num_params": model.num_params(),
        "ckpt_tensors": ckpt.collect(None, None, false).len(),
        "ignored_targets": ignored,
        "init": {"loss": f64::from(loss0), "logits": last0.iter().map(|&v| f64::from(v)).collect::<Vec<_>>()},
        "bias_grad": bias_grad,
        "autocast": autocast,
        "loss": steps(&rec.loss, 0),
        "lr": steps(&rec.lr, 0),
        "grad_norm": steps(&rec.grad_norm, 0),
        "clipped_steps": rec.grad_norm.iter().filter(|&&n| n > CLIP).count(),
        "eval_loss": f64::from(eval_loss),
        "dropout_run": {"dropout": DROPOUT_RUN, "eval_loss": f64::from(evaluate(&dropped, &data.ids)),
                        "last10_train_loss": dropped_rec.loss[STEPS - 10..].iter().sum::<f64>() / 10.0},
        "final": weights_end,
        "final_key_bias": key_bias,
        "resume": {"from_step": RESUME_AT, "loss": steps(&resumed_loss, RESUME_AT),
                   "same_losses": resumed_loss == rec.loss[RESUME_AT..], "same_weights": same_weights},
        "sample": {"prompt": sample["prompt"], "shared_draws": sample["shared_draws"], "min_cdf_gap": sample["min_cdf_gap"]},
        "sample_own_rng": sample["own_rng"],
        "seconds": seconds,
    });
    println!("{}", serde_json::to_string_pretty(&result).unwrap());
}
