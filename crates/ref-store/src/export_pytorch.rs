//! 导出给 PyTorch: the rows of experiments/reference/ref-5-store/export_pytorch.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn fnv(raw: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in raw {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

/// FNV of the tensor bytes after the header: the header's __metadata__ comes out in a
/// different order from save to save (see save_twice_bytes).
fn payload_fnv(raw: &[u8]) -> String {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    fnv(&raw[8 + n..])
}

/// Saves `m` twenty times with `save`: are all the files byte for byte the same?
fn saved_twenty_times(save: impl Fn(&str)) -> bool {
    let files: Vec<Vec<u8>> = (0..20)
        .map(|i| {
            let path = format!("twice{i}.safetensors");
            save(&path);
            std::fs::read(&path).unwrap()
        })
        .collect();
    files.iter().all(|f| f == &files[0])
}

/// The safetensors header: {name: [dtype, shape]} (the first 8 bytes are its length).
fn header(raw: &[u8]) -> Value {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    let head: Map<String, Value> = serde_json::from_slice(&raw[8..8 + n]).unwrap();
    let mut out = Map::new();
    for (k, v) in head {
        if k != "__metadata__" {
            out.insert(k, json!([v["dtype"], v["shape"]]));
        }
    }
    Value::Object(out)
}

/// The header as sorted "name dtype shape" lines (shape as 5x2), like expected_keys() in
/// ref_store (PyTorch side): two files with other names still line up entry by entry.
fn header_lines(raw: &[u8]) -> Vec<String> {
    header(raw).as_object().unwrap().iter()
        .map(|(k, v)| {
            let shape: Vec<String> = v[1].as_array().unwrap().iter().map(|d| d.to_string()).collect();
            format!("{k} {} {}", v[0].as_str().unwrap(), shape.join("x"))
        })
        .collect()
}

// The model the harness's small() fills, which other topics load files into.
pub(crate) use export_forward::{run as small_forward, Small};
// The file main's `export` writes for make_store_weights.py.
pub(crate) use export_keys::save as save_export;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let m = small(&d);
    export_keys::save(&m, "small_export.safetensors");
    let exported = std::fs::read("small_export.safetensors").unwrap();
    row("export_keys", json!({"tensors": header_lines(&exported)}));
    let x = data([2, 2, 3, 5], 0.0, &d) * 2.0;
    row("export_forward", json!({"payload_fnv": payload_fnv(&exported), "y": flat(export_forward::run(&m, x.clone()))}));
    export_no_adapter::save(&m, "small_naive.safetensors");
    row("export_no_adapter", json!({"tensors": header_lines(&std::fs::read("small_naive.safetensors").unwrap())}));
    row("save_twice_bytes", json!({"identical": saved_twenty_times(|p| save_twice_bytes::save(&m, p))}));
    row("save_twice_clear_metadata",
        json!({"identical": saved_twenty_times(|p| save_twice_clear_metadata::save(&m, p))}));
}

mod export_keys {
    use burn::prelude::*;
    use burn::store::{BurnToPyTorchAdapter, ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 存成 PyTorch 的名字和排列：Linear 的 weight 转回 [out, in]，gamma/beta → weight/bias
        let mut store = SafetensorsStore::from_file(path)
            .with_to_adapter(BurnToPyTorchAdapter)
            .overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod export_forward {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{
        BatchNorm, BatchNormConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig,
        PaddingConfig2d,
    };
    use burn::prelude::*;

    // PyTorch 的 Small 一个属性对一个字段：导出文件里的键名就是这些字段名
    #[derive(Module, Debug)]
    pub struct Small {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub ln: LayerNorm,
        pub lin: Linear,
    }

    impl Small {
        pub fn init(device: &Device) -> Self {
            Small {
                conv: Conv2dConfig::new([2, 3], [3, 3])
                    .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                    .init(device),
                bn: BatchNormConfig::new(3).init(device),
                ln: LayerNormConfig::new(5).init(device),
                lin: LinearConfig::new(5, 2).init(device),
            }
        }

        pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
            self.lin.forward(self.ln.forward(self.bn.forward(self.conv.forward(x))))
        }
    }

    /// small.eval()(x)：导出之前的模型，和 PyTorch 载入导出文件之后的前向相同
    pub fn run(small: &Small, x: Tensor<4>) -> Tensor<4> {
        small.valid().forward(x)
    }
}

mod export_no_adapter {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 不加适配器：文件里是 burn 自己的名字和排列
        let mut store = SafetensorsStore::from_file(path).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod save_twice_bytes {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 文件头的 __metadata__ 带着 format、producer、version
        let mut store = SafetensorsStore::from_file(path).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod save_twice_clear_metadata {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 不写 __metadata__：同一个模型每次存出的字节相同
        let mut store = SafetensorsStore::from_file(path).clear_metadata().overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}
