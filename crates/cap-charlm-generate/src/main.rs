//! Greedy generation from cap-charlm's checkpoint, in a program built without autodiff: the
//! same CharLm, its parameters from the burnpack file given as the argument, on Device::flex().
use std::collections::BTreeSet;

use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig, Lstm, LstmConfig, LstmState};
use burn::prelude::*;
use serde_json::json;

const EMB: usize = 16;
const HIDDEN: usize = 64;
const PROMPT: &str = "Beautiful is ";
const GEN_LEN: usize = 80;

// The model, as in cap-charlm (a checkpoint holds parameters, not code).
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
            lstm: LstmConfig::new(EMB, HIDDEN, true).init(device),
            head: LinearConfig::new(HIDDEN, vocab).init(device),
        }
    }

    fn forward(&self, ids: Tensor<2, Int>, state: Option<LstmState<2>>) -> (Tensor<3>, LstmState<2>) {
        let (h, state) = self.lstm.forward(self.embed.forward(ids), state);
        (self.head.forward(h), state)
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: cap-charlm-generate <checkpoint.bpk>");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-charlm/data/zen.txt"))
        .expect("read zen.txt");
    let chars: Vec<char> = text.chars().collect::<BTreeSet<_>>().into_iter().collect();
    // region: generate
    let device = Device::flex();
    let model = CharLm::init(chars.len(), &device).load_file(&path);
    let ids: Vec<i64> = PROMPT.chars().map(|c| chars.binary_search(&c).unwrap() as i64).collect();
    let prompt = Tensor::<2, Int>::from_data(TensorData::new(ids, [1, PROMPT.len()]), &device);
    let (mut logits, mut state) = model.forward(prompt, None);
    let last = |l: &Tensor<3>| -> Tensor<1> {
        let [_, t, v] = l.dims();
        l.clone().slice(s![0, t - 1, ..]).reshape([v])
    };
    let logits0 = last(&logits);
    let (mut out, mut margin) = (String::new(), f32::INFINITY);
    for _ in 0..GEN_LEN {
        let l = last(&logits);
        let top2 = l.clone().sort_descending(0).slice(s![0..2]).into_data().try_to_vec::<f32>().unwrap();
        margin = margin.min(top2[0] - top2[1]);
        let next = l.argmax(0); // [1]
        out.push(chars[next.clone().into_scalar::<i64>() as usize]);
        (logits, state) = model.forward(next.reshape([1, 1]), Some(state));
    }
    // endregion: generate
    let logits0: Vec<f32> = logits0.into_data().try_to_vec().unwrap();
    println!(
        "{}",
        json!({
            "logits0": logits0.into_iter().map(f64::from).collect::<Vec<_>>(),
            "generated": out,
            "gen_min_margin": f64::from(margin),
        })
    );
}
