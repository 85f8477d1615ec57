//! cap-gpt's GPT, its loss, its data, its AdamW groups, its learning rate and its clipping,
//! copied (cap-gpt is a binary, nothing to import) without the dropout and bf16 parts, which
//! the first steps do not use. Reads cap-gpt's data/: the same zen.txt, init.pt, order.json.
use std::collections::BTreeSet;

use burn::module::{Module, ModuleVisitor, Param, ParamGroup, ParamId};
use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use burn::tensor::activation::{gelu, log_softmax};
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-gpt/data");
const N_LAYER: usize = 2;
const N_HEAD: usize = 4;
const N_EMBD: usize = 64;
const BLOCK: usize = 32;
pub const MICRO: usize = 8;
const STEPS: usize = 100;
const WARMUP: usize = 10;
const MAX_LR: f64 = 3e-3;
const MIN_LR: f64 = 3e-4;
const WEIGHT_DECAY: f32 = 0.1;
pub const CLIP: f32 = 1.0;
/// The steps cap-gpt-ddp compares.
pub const DDP_STEPS: usize = 10;

/// Windows of BLOCK ids at `offsets`; the target is the window shifted by one, padded with
/// input 0 and target -1 past the end of the text.
pub fn batch(ids: &[i64], offsets: &[usize], device: &Device) -> (Tensor<2, Int>, Tensor<2, Int>) {
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

#[derive(Module, Debug)]
struct CausalSelfAttention {
    c_attn: Linear,
    c_proj: Linear,
}

impl CausalSelfAttention {
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [b, t, c] = x.dims();
        let qkv = self.c_attn.forward(x);
        let head = |i: usize| {
            qkv.clone().slice(s![.., .., i * c..(i + 1) * c]).reshape([b, t, N_HEAD, c / N_HEAD]).swap_dims(1, 2)
        };
        let causal = AttentionModuleOptions { is_causal: true, ..Default::default() };
        let y = attention(head(0), head(1), head(2), None, None, causal);
        self.c_proj.forward(y.swap_dims(1, 2).reshape([b, t, c]))
    }
}

#[derive(Module, Debug)]
struct Mlp {
    c_fc: Linear,
    c_proj: Linear,
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
        x + self.mlp.c_proj.forward(gelu(h))
    }
}

/// The output projection multiplies by wte's own weight (weight tying).
#[derive(Module, Debug)]
pub struct Gpt {
    wte: Embedding,
    wpe: Embedding,
    h: Vec<Block>,
    ln_f: LayerNorm,
}

impl Gpt {
    /// The GPT with init.pt's weights.
    pub fn load(vocab: usize, device: &Device) -> Self {
        let linear = |i, o| LinearConfig::new(i, o).init(device);
        let block = || Block {
            ln_1: LayerNormConfig::new(N_EMBD).init(device),
            attn: CausalSelfAttention { c_attn: linear(N_EMBD, 3 * N_EMBD), c_proj: linear(N_EMBD, N_EMBD) },
            ln_2: LayerNormConfig::new(N_EMBD).init(device),
            mlp: Mlp { c_fc: linear(N_EMBD, 4 * N_EMBD), c_proj: linear(4 * N_EMBD, N_EMBD) },
        };
        let mut model = Gpt {
            wte: EmbeddingConfig::new(vocab, N_EMBD).init(device),
            wpe: EmbeddingConfig::new(BLOCK, N_EMBD).init(device),
            h: (0..N_LAYER).map(|_| block()).collect(),
            ln_f: LayerNormConfig::new(N_EMBD).init(device),
        };
        let mut store = PytorchStore::from_file(format!("{DATA}/init.pt")).allow_partial(true);
        let result = model.load_from(&mut store).expect("load init.pt");
        assert_eq!(result.unused, ["lm_head.weight"], "what init.pt holds that the model has no place for");
        assert!(result.missing.is_empty(), "not in init.pt: {:?}", result.missing);
        model
    }

    pub fn forward(&self, idx: Tensor<2, Int>) -> Tensor<3> {
        let t = idx.dims()[1];
        let pos = Tensor::<1, Int>::arange(0..t as i64, &idx.device()).unsqueeze::<2>();
        let mut x = self.wte.forward(idx) + self.wpe.forward(pos);
        for block in &self.h {
            x = block.forward(x);
        }
        let w = self.wte.weight.val(); // [vocab, n_embd]
        self.ln_f.forward(x).matmul(w.transpose().unsqueeze::<3>())
    }
}

/// F.cross_entropy(..., ignore_index=-1): the mean over the targets that are not -1.
pub fn cross_entropy(logits: Tensor<3>, targets: Tensor<2, Int>) -> Tensor<1> {
    let [b, t, v] = logits.dims();
    let targets = targets.reshape([b * t]);
    let keep = targets.clone().greater_equal_elem(0).float();
    let logp = log_softmax(logits.reshape([b * t, v]), 1);
    let picked = logp.gather(1, targets.clamp_min(0).unsqueeze_dim(1)).reshape([b * t]);
    (picked * keep.clone()).sum().neg() / keep.sum()
}

/// The ids of the 1-D parameters (biases, LayerNorm): the group without weight decay.
struct NoDecay(Vec<ParamId>);

impl ModuleVisitor for NoDecay {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if D < 2 {
            self.0.push(param.id);
        }
    }
}

/// AdamW in gpt.py's two groups: decay 0.1 on the 2-D weights, none on the 1-D parameters.
pub fn optimizer<M: Module>(model: &M) -> ModuleOptimizer {
    let adamw = |wd: f32| AdamWConfig::new().with_beta_1(0.9).with_beta_2(0.95).with_epsilon(1e-8).with_weight_decay(wd);
    let mut no_decay = NoDecay(Vec::new());
    model.visit(&mut no_decay);
    adamw(WEIGHT_DECAY).init().with_group(ParamGroup::from_ids(no_decay.0), adamw(0.0).build(), None)
}

/// Linear warmup to MAX_LR over WARMUP steps, then cosine decay to MIN_LR at STEPS.
pub fn get_lr(step: usize) -> f64 {
    if step < WARMUP {
        return MAX_LR * (step + 1) as f64 / WARMUP as f64;
    }
    let ratio = (step - WARMUP) as f64 / (STEPS - WARMUP) as f64;
    MIN_LR + 0.5 * (1.0 + (std::f64::consts::PI * ratio).cos()) * (MAX_LR - MIN_LR)
}

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
pub fn clip_grad_norm<M: Module>(model: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    let mut sq = SquaredNorm { grads, sum: None };
    model.visit(&mut sq);
    let Some(total) = sq.sum.map(|s| s.sqrt()) else { return 0.0 };
    let coef = total.clone().add_scalar(1e-6).recip().mul_scalar(max_norm).clamp_max(1.0);
    model.visit(&mut Scale { grads, coef });
    total.into_scalar::<f32>()
}

pub struct Data {
    pub vocab: usize,
    pub ids: Vec<i64>,
    /// Per step, per rank (micro-batch), the window offsets.
    pub order: Vec<Vec<Vec<usize>>>,
}

pub fn load_data() -> Data {
    let text = std::fs::read_to_string(format!("{DATA}/zen.txt")).expect("read zen.txt");
    let vocab: Vec<char> = text.chars().collect::<BTreeSet<_>>().into_iter().collect();
    let ids = text.chars().map(|c| vocab.binary_search(&c).unwrap() as i64).collect();
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/order.json")).unwrap()).unwrap();
    let order = serde_json::from_value(raw["steps"].clone()).expect("order.json");
    Data { vocab: vocab.len(), ids, order }
}
