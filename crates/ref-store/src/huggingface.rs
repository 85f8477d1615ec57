//! HuggingFace 的检查点: the rows of experiments/reference/ref-5-store/huggingface.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const HF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/hf");
const IDS: [i64; 5] = [1, 4, 2, 6, 0];

fn logits_row(y: Tensor<3>) -> Value {
    json!({"logits": flat(y.clone()), "shape": y.dims()})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ids = || Tensor::<2, Int>::from_data(TensorData::new(IDS.to_vec(), [1, 5]), &d);
    let file = format!("{HF}/model.safetensors");
    let m = hf_gpt2_naive::load(&file, &d);
    row("hf_gpt2_naive", logits_row(hf_gpt2_naive::forward(&m, ids())));
    let m = hf_gpt2::load(&file, &d);
    row("hf_gpt2", logits_row(hf_gpt2::forward(&m, ids())));
    let m = hf_sharded::load(HF, &d);
    row("hf_sharded", logits_row(hf_sharded::forward(&m, ids())));
}

mod hf_gpt2_naive {
    use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};

    // hub 的 GPT-2：词嵌入、位置嵌入、一个残差的 c_proj（Conv1D）、ln_f，lm_head 和 wte 共享
    #[derive(Module, Debug)]
    pub struct TinyGpt2 {
        pub wte: Embedding,
        pub wpe: Embedding,
        pub c_proj: Linear,
        pub ln_f: LayerNorm,
    }

    pub fn load(path: &str, d: &Device) -> TinyGpt2 {
        let (v, t, dim) = (7, 5, 4);
        let mut m = TinyGpt2 {
            wte: EmbeddingConfig::new(v, dim).init(d),
            wpe: EmbeddingConfig::new(t, dim).init(d),
            c_proj: LinearConfig::new(dim, dim).init(d),
            ln_f: LayerNormConfig::new(dim).init(d),
        };
        // 载入 PyTorch 权重的习惯写法：适配器把 c_proj 当 nn.Linear 转置
        let mut store = SafetensorsStore::from_file(path)
            .with_from_adapter(PyTorchToBurnAdapter)
            .with_key_remapping(r"^transformer\.", "")
            .with_key_remapping(r"^h\.0\.mlp\.c_proj\.", "c_proj.");
        m.load_from(&mut store).expect("load model.safetensors");
        m
    }

    pub fn forward(m: &TinyGpt2, ids: Tensor<2, Int>) -> Tensor<3> {
        let [b, t] = ids.dims();
        let pos = Tensor::<1, Int>::arange(0..t as i64, &ids.device()).reshape([1, t]).repeat_dim(0, b);
        let h = m.wte.forward(ids) + m.wpe.forward(pos);
        let h = h.clone() + m.c_proj.forward(h);
        let h = m.ln_f.forward(h);
        h.matmul(m.wte.weight.val().transpose().unsqueeze::<3>())
    }
}

mod hf_gpt2 {
    use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    #[derive(Module, Debug)]
    pub struct TinyGpt2 {
        pub wte: Embedding,
        pub wpe: Embedding,
        pub c_proj: Linear,
        pub ln_f: LayerNorm,
    }

    pub fn load(path: &str, d: &Device) -> TinyGpt2 {
        let (v, t, dim) = (7, 5, 4);
        let mut m = TinyGpt2 {
            wte: EmbeddingConfig::new(v, dim).init(d),
            wpe: EmbeddingConfig::new(t, dim).init(d),
            c_proj: LinearConfig::new(dim, dim).init(d),
            ln_f: LayerNormConfig::new(dim).init(d),
        };
        // 不加适配器：Conv1D 的 weight 已是 [in, out]；键名逐条换成字段名
        let mut store = SafetensorsStore::from_file(path)
            .with_key_remapping(r"^transformer\.", "")
            .with_key_remapping(r"^h\.0\.mlp\.c_proj\.", "c_proj.")
            .with_key_remapping(r"^ln_f\.weight$", "ln_f.gamma")
            .with_key_remapping(r"^ln_f\.bias$", "ln_f.beta");
        m.load_from(&mut store).expect("load model.safetensors");
        m
    }

    pub fn forward(m: &TinyGpt2, ids: Tensor<2, Int>) -> Tensor<3> {
        let [b, t] = ids.dims();
        let pos = Tensor::<1, Int>::arange(0..t as i64, &ids.device()).reshape([1, t]).repeat_dim(0, b);
        let h = m.wte.forward(ids) + m.wpe.forward(pos);
        let h = h.clone() + m.c_proj.forward(h);
        let h = m.ln_f.forward(h);
        // lm_head 不在文件里：和 wte 共享权重
        h.matmul(m.wte.weight.val().transpose().unsqueeze::<3>())
    }
}

mod hf_sharded {
    use burn::nn::{Embedding, EmbeddingConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};
    use std::collections::BTreeSet;

    #[derive(Module, Debug)]
    pub struct TinyGpt2 {
        pub wte: Embedding,
        pub wpe: Embedding,
        pub c_proj: Linear,
        pub ln_f: LayerNorm,
    }

    // model.safetensors.index.json 的 weight_map 列出每个键所在的文件：逐个文件载入，
    // allow_partial 让每个文件只填它有的那些参数
    pub fn load(dir: &str, d: &Device) -> TinyGpt2 {
        let (v, t, dim) = (7, 5, 4);
        let mut m = TinyGpt2 {
            wte: EmbeddingConfig::new(v, dim).init(d),
            wpe: EmbeddingConfig::new(t, dim).init(d),
            c_proj: LinearConfig::new(dim, dim).init(d),
            ln_f: LayerNormConfig::new(dim).init(d),
        };
        let index = std::fs::read_to_string(format!("{dir}/model.safetensors.index.json")).expect("index");
        let index: serde_json::Value = serde_json::from_str(&index).expect("index JSON");
        let files: BTreeSet<String> = index["weight_map"]
            .as_object()
            .expect("weight_map")
            .values()
            .map(|f| f.as_str().expect("file name").to_string())
            .collect();
        let mut loaded = BTreeSet::new();
        for file in &files {
            let mut store = SafetensorsStore::from_file(format!("{dir}/{file}"))
                .allow_partial(true)
                .with_key_remapping(r"^transformer\.", "")
                .with_key_remapping(r"^h\.0\.mlp\.c_proj\.", "c_proj.")
                .with_key_remapping(r"^ln_f\.weight$", "ln_f.gamma")
                .with_key_remapping(r"^ln_f\.bias$", "ln_f.beta");
            let result = m.load_from(&mut store).expect(file);
            loaded.extend(result.applied);
        }
        let all: BTreeSet<String> = m.collect(None, None, false).into_iter().map(|s| s.name).collect();
        assert_eq!(loaded, all, "every parameter comes from one of the shards");
        m
    }

    pub fn forward(m: &TinyGpt2, ids: Tensor<2, Int>) -> Tensor<3> {
        let [b, t] = ids.dims();
        let pos = Tensor::<1, Int>::arange(0..t as i64, &ids.device()).reshape([1, t]).repeat_dim(0, b);
        let h = m.wte.forward(ids) + m.wpe.forward(pos);
        let h = h.clone() + m.c_proj.forward(h);
        let h = m.ln_f.forward(h);
        h.matmul(m.wte.weight.val().transpose().unsqueeze::<3>())
    }
}
