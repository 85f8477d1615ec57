//! What burn offers in place of torch.compile, run where it can run here: cap-gpt's trained
//! GPT (gpt.bpk, written by cap-gpt, which the runner builds first) on Flex, which runs each
//! operation as it comes, and on burn's wgpu backend pinned to Vulkan, whose GPU runtime fuses
//! and autotunes kernels. On this machine Vulkan is Mesa's lavapipe (Vulkan on the CPU). The
//! Vulkan run is a child process (this program, `--vulkan`), so that a crash is recorded.
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
use burn::prelude::*;
use burn::tensor::activation::gelu;
use burn::tensor::module::attention;
use burn::tensor::ops::AttentionModuleOptions;
use burn::tensor::wgpu::WgpuBackend;
use burn::tensor::DeviceKind;
use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-gpt/data");
const N_LAYER: usize = 2;
const N_HEAD: usize = 4;
const N_EMBD: usize = 64;
const BLOCK: usize = 32;
const PROMPT: &str = "Beautiful is ";

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

// region: run
/// The trained model on `device`: the logits after PROMPT, read back to the host.
fn logits(device: &Device, vocab: &[char]) -> Vec<f32> {
    let model = Gpt::init(vocab.len(), device).load_file("gpt.bpk");
    let ids: Vec<i64> = PROMPT.chars().map(|c| vocab.binary_search(&c).unwrap() as i64).collect();
    let n = ids.len();
    let x = Tensor::<2, Int>::from_data(TensorData::new(ids, [1, n]), device);
    model.forward(x).slice(s![0, -1, ..]).into_data().iter::<f32>().collect()
}
// endregion: run

fn main() {
    let text = std::fs::read_to_string(format!("{DATA}/zen.txt")).expect("read zen.txt");
    let vocab: Vec<char> = text.chars().collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    if std::env::args().nth(1).as_deref() == Some("--vulkan") {
        // region: vulkan
        let out = logits(&Device::vulkan(DeviceKind::DefaultDevice), &vocab);
        // endregion: vulkan
        println!("{}", json!({"logits": out.iter().map(|&v| f64::from(v)).collect::<Vec<_>>()}));
        return;
    }
    let trained = Command::new(std::env::current_exe().unwrap().with_file_name("cap-gpt")).output().expect("run cap-gpt");
    assert!(trained.status.success(), "cap-gpt: {}", String::from_utf8_lossy(&trained.stderr));
    let flex = logits(&Device::flex(), &vocab);
    let child = Command::new(std::env::current_exe().unwrap()).arg("--vulkan").output().expect("run the child");
    let vulkan = match (child.status.code(), child.status.signal()) {
        (Some(0), _) => {
            let v: Value = serde_json::from_slice(&child.stdout).expect("the child's JSON");
            let other: Vec<f64> = serde_json::from_value(v["logits"].clone()).unwrap();
            let diff = flex.iter().zip(&other).map(|(a, b)| (f64::from(*a) - b).abs()).fold(0.0, f64::max);
            json!({"ended": "ok", "max_abs_diff_to_flex": diff})
        }
        (Some(code), _) => json!({"ended": "exit", "code": code}),
        (None, Some(sig)) => json!({"ended": "signal", "signal": sig, "sigsegv": sig == 11}),
        _ => json!({"ended": "unknown"}),
    };
    // The adapter the Vulkan device opens (the same options as Device::vulkan).
    let (_, setup) = Device::wgpu_options()
        .device_kind(DeviceKind::DefaultDevice)
        .graphics_api(WgpuBackend::Vulkan)
        .init_with_setup()
        .expect("no Vulkan adapter");
    println!("{}", serde_json::to_string_pretty(&json!({
        "prompt": PROMPT,
        "flex_logits": flex.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(),
        "vulkan": vulkan,
        "adapter": {"name": setup.adapter.get_info().name, "driver_info": setup.adapter.get_info().driver_info},
    })).unwrap());
}
