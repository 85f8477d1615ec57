//! Top-k sampling from cap-gpt's final weights, in a program built without autodiff: the same
//! Gpt, its parameters from the burnpack file given as the argument, on Device::flex().
//! Samples twice: with the uniform draws committed in cap-gpt's data/draws.json (the PyTorch
//! script uses the same ones), and with burn's own RNG (categorical) after seeding it.
use std::collections::BTreeSet;

use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::activation::{gelu, softmax};
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-gpt/data");
const N_LAYER: usize = 2;
const N_HEAD: usize = 4;
const N_EMBD: usize = 64;
const BLOCK: usize = 32;
// region: sample_config
const PROMPT: &str = "Beautiful is ";
const GEN_LEN: usize = 120;
const TOP_K: usize = 5;
const TEMPERATURE: f64 = 0.8;
const SEED: u64 = 1337;
// endregion: sample_config

// The model, as in cap-gpt (a checkpoint holds parameters, not code).
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

#[derive(Module, Debug)]
struct Gpt {
    wte: Embedding,
    wpe: Embedding,
    h: Vec<Block>,
    ln_f: LayerNorm,
}

impl Gpt {
    fn init(vocab: usize, device: &Device) -> Self {
        let linear = |i, o| LinearConfig::new(i, o).init(device);
        let block = || Block {
            ln_1: LayerNormConfig::new(N_EMBD).init(device),
            attn: CausalSelfAttention { c_attn: linear(N_EMBD, 3 * N_EMBD), c_proj: linear(N_EMBD, N_EMBD) },
            ln_2: LayerNormConfig::new(N_EMBD).init(device),
            mlp: Mlp { c_fc: linear(N_EMBD, 4 * N_EMBD), c_proj: linear(4 * N_EMBD, N_EMBD) },
        };
        Gpt {
            wte: EmbeddingConfig::new(vocab, N_EMBD).init(device),
            wpe: EmbeddingConfig::new(BLOCK, N_EMBD).init(device),
            h: (0..N_LAYER).map(|_| block()).collect(),
            ln_f: LayerNormConfig::new(N_EMBD).init(device),
        }
    }

    fn forward(&self, idx: Tensor<2, Int>) -> Tensor<3> {
        let t = idx.dims()[1];
        let pos = Tensor::<1, Int>::arange(0..t as i64, &idx.device()).unsqueeze::<2>();
        let mut x = self.wte.forward(idx) + self.wpe.forward(pos);
        for block in &self.h {
            x = block.forward(x);
        }
        let w = self.wte.weight.val();
        self.ln_f.forward(x).matmul(w.transpose().unsqueeze::<3>())
    }
}

// region: sample
/// Top-k sampling at TEMPERATURE. With `draws`, the k-th character is picked by inverse CDF
/// from the k-th uniform number (the smallest index whose cumulative probability is not below
/// it, as torch's script does); without, by burn's categorical on its own RNG.
fn generate(model: &Gpt, vocab: &[char], draws: Option<&[f32]>, device: &Device) -> (String, Option<f32>) {
    let mut ids: Vec<i64> = PROMPT.chars().map(|c| vocab.binary_search(&c).unwrap() as i64).collect();
    let mut gap = f32::INFINITY;
    for k in 0..GEN_LEN {
        let ctx = &ids[ids.len().saturating_sub(BLOCK)..];
        let x = Tensor::<2, Int>::from_data(TensorData::new(ctx.to_vec(), [1, ctx.len()]), device);
        let logits = model.forward(x).slice(s![0, -1, ..]).reshape([vocab.len()]) / TEMPERATURE;
        let (top, top_idx) = logits.topk_with_indices(TOP_K, 0);
        let probs = softmax(top, 0);
        let pick = match draws {
            Some(u) => {
                let cdf: Vec<f32> = probs.cumsum(0).into_data().try_to_vec().unwrap();
                gap = cdf.iter().map(|c| (c - u[k]).abs()).fold(gap, f32::min);
                cdf.iter().filter(|&&c| c < u[k]).count().min(TOP_K - 1)
            }
            None => probs.categorical(1).into_scalar::<i64>() as usize,
        };
        ids.push(top_idx.into_data().iter::<i64>().nth(pick).unwrap());
    }
    let text = ids[PROMPT.chars().count()..].iter().map(|&i| vocab[i as usize]).collect();
    (text, draws.map(|_| gap))
}
// endregion: sample

fn main() {
    let path = std::env::args().nth(1).expect("usage: cap-gpt-generate <checkpoint.bpk>");
    let text = std::fs::read_to_string(format!("{DATA}/zen.txt")).expect("read zen.txt");
    let vocab: Vec<char> = text.chars().collect::<BTreeSet<_>>().into_iter().collect();
    let raw: Value = serde_json::from_str(&std::fs::read_to_string(format!("{DATA}/draws.json")).unwrap()).unwrap();
    let draws: Vec<f32> = serde_json::from_value(raw["uniform"].clone()).expect("draws.json");

    let device = Device::flex();
    // region: load
    let model = Gpt::init(vocab.len(), &device).load_file(&path);
    // endregion: load
    let (shared, gap) = generate(&model, &vocab, Some(&draws), &device);
    device.seed(SEED);
    let (own, _) = generate(&model, &vocab, None, &device);
    println!("{}", json!({"prompt": PROMPT, "shared_draws": shared, "min_cdf_gap": gap.map(f64::from), "own_rng": own}));
}
