//! The torch → burn map, rows for PyTorch files and mixed precision: one block per row of
//! ref-5-store.yaml's table. Reads data/zoo.pt (saved by PyTorch); writes its export of
//! `Small` into the working directory (or, with `export DIR`, into DIR: that is how
//! make_store_weights.py makes the copy PyTorch loads). Inputs: element k of a tensor with
//! phase p is 0.5·sin(k + 1 + p), rounded to f32 once; gradients come from L = sum(y · G).
use std::path::Path;

use burn::module::{Param, RunningState};
use burn::nn::conv::{Conv2d, Conv2dConfig, ConvTranspose2d, ConvTranspose2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Embedding, EmbeddingConfig, GroupNorm, GroupNormConfig,
    LayerNorm, LayerNormConfig, Linear, LinearConfig, Lstm, LstmConfig, PaddingConfig2d,
};
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use burn::store::{
    BurnToPyTorchAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot,
    PyTorchToBurnAdapter, PytorchStore, SafetensorsStore,
};
use burn::tensor::{DType, Gradients};
use serde_json::{json, Map, Value};

const ZOO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/zoo.pt");

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    let t = t.cast(DType::F32);
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn fnv(raw: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in raw {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

// region: zoo
/// PyTorch's Zoo, field for field: the names are what PytorchStore matches on.
#[derive(Module, Debug)]
struct Zoo {
    lin: Linear,
    conv: Conv2d,
    convt: ConvTranspose2d,
    bn: BatchNorm,
    ln: LayerNorm,
    gn: GroupNorm,
    emb: Embedding,
    lstm: Lstm,
}

impl Zoo {
    fn init(device: &Device) -> Self {
        Zoo {
            lin: LinearConfig::new(4, 3).init(device),
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            convt: ConvTranspose2dConfig::new([3, 2], [3, 3]).with_stride([2, 2]).init(device),
            bn: BatchNormConfig::new(3).init(device),
            ln: LayerNormConfig::new(4).init(device),
            gn: GroupNormConfig::new(2, 4).init(device),
            emb: EmbeddingConfig::new(5, 3).init(device),
            lstm: LstmConfig::new(3, 4, true).init(device),
        }
    }
}
// endregion: zoo

fn loaded_zoo(device: &Device) -> Zoo {
    // region: load_pt
    let mut zoo = Zoo::init(device);
    // allow_partial: the LSTM's stacked tensors find no match (see the load_lstm row)
    let mut store = PytorchStore::from_file(ZOO).allow_partial(true);
    zoo.load_from(&mut store).expect("load zoo.pt");
    // endregion: load_pt
    zoo
}

// region: small
#[derive(Module, Debug)]
struct Small {
    conv: Conv2d,
    bn: BatchNorm,
    ln: LayerNorm,
    lin: Linear,
}

impl Small {
    fn init(device: &Device) -> Self {
        Small {
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            bn: BatchNormConfig::new(3).init(device),
            ln: LayerNormConfig::new(5).init(device),
            lin: LinearConfig::new(5, 2).init(device),
        }
    }
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.lin.forward(self.ln.forward(self.bn.forward(self.conv.forward(x))))
    }
}
// endregion: small

/// Small with deterministic weights in burn's own layout (Linear [in, out]).
fn small(device: &Device) -> Small {
    let mut m = Small::init(device);
    let p = |shape: [usize; 1], phase| Param::from_tensor(data(shape, phase, device));
    m.conv.weight = Param::from_tensor(data([3, 2, 3, 3], 10.0, device));
    m.conv.bias = Some(p([3], 20.0));
    m.bn.gamma = Param::from_tensor(data([3], 30.0, device).add_scalar(1.0));
    m.bn.beta = p([3], 40.0);
    m.bn.running_mean = RunningState::new(data([3], 50.0, device));
    m.bn.running_var = RunningState::new(data([3], 60.0, device).add_scalar(1.0));
    m.ln.gamma = Param::from_tensor(data([5], 70.0, device).add_scalar(1.0));
    m.ln.beta = Some(p([5], 80.0));
    m.lin.weight = Param::from_tensor(data([5, 2], 90.0, device));
    m.lin.bias = Some(p([2], 100.0));
    m
}

fn save(m: &Small, path: &Path, adapter: Option<Box<dyn Fn(SafetensorsStore) -> SafetensorsStore>>) -> Vec<u8> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    if let Some(f) = adapter {
        store = f(store);
    }
    m.save_into(&mut store).expect("save safetensors");
    std::fs::read(path).unwrap()
}

/// FNV of the tensor bytes after the header: the header's __metadata__ comes out in a
/// different order from save to save (see save_twice_bytes).
fn payload_fnv(raw: &[u8]) -> String {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    fnv(&raw[8 + n..])
}

/// Saves `m` twenty times: are all the files byte for byte the same?
fn saved_twenty_times(m: &Small, clear_metadata: bool) -> bool {
    let files: Vec<Vec<u8>> = (0..20)
        .map(|i| {
            let mut store = SafetensorsStore::from_file(format!("twice{i}.safetensors")).overwrite(true);
            if clear_metadata {
                store = store.clear_metadata();
            }
            m.save_into(&mut store).expect("save");
            std::fs::read(format!("twice{i}.safetensors")).unwrap()
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
/// ref_store.py: two files with other names still line up entry by entry.
fn header_lines(raw: &[u8]) -> Vec<String> {
    header(raw).as_object().unwrap().iter()
        .map(|(k, v)| {
            let shape: Vec<String> = v[1].as_array().unwrap().iter().map(|d| d.to_string()).collect();
            format!("{k} {} {}", v[0].as_str().unwrap(), shape.join("x"))
        })
        .collect()
}

fn backward<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * data(y.dims(), 50.0, &y.device())).sum().backward()
}

fn grad<const D: usize>(t: Tensor<D>, g: &Gradients) -> Vec<f64> {
    flat(t.grad(g).expect("no gradient"))
}

fn torch_dtype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float32",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        _ => "other",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d = Device::flex();
    if args.get(1).map(String::as_str) == Some("export") {
        // make_store_weights.py: the copy PyTorch reads
        let dir = Path::new(&args[2]);
        save(&small(&d), &dir.join("small_export.safetensors"), Some(Box::new(|s| s.with_to_adapter(BurnToPyTorchAdapter))));
        return;
    }
    let ad = Device::flex().autodiff();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 载入 PyTorch 的权重 ----
    let zoo = loaded_zoo(&ad);
    {
        let x = data([2, 4], 0.0, &ad).require_grad();
        let y = zoo.lin.forward(x.clone());
        let g = backward(&y);
        // burn keeps [in, out]: transpose the gradient back to PyTorch's [out, in]
        let dw = zoo.lin.weight.val().grad(&g).unwrap().transpose();
        row("load_linear", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": flat(dw), "d_bias": grad(zoo.lin.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let x = data([2, 2, 4, 4], 0.0, &ad).require_grad();
        let y = zoo.conv.forward(x.clone());
        let g = backward(&y);
        row("load_conv2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.conv.weight.val(), &g), "d_bias": grad(zoo.conv.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let x = data([1, 3, 3, 3], 0.0, &ad).require_grad();
        let y = zoo.convt.forward(x.clone());
        let g = backward(&y);
        row("load_conv_transpose2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.convt.weight.val(), &g), "d_bias": grad(zoo.convt.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        // Inference path: a device without autodiff
        let bn = loaded_zoo(&d).bn;
        let y = bn.forward(data([2, 3, 4, 4], 0.0, &d) * 2.0);
        row("load_batchnorm_eval", json!({"y": flat(y), "running_mean": flat(bn.running_mean.value()),
            "running_var": flat(bn.running_var.value())}));
    }
    {
        let x = data([2, 3, 4], 0.0, &ad).require_grad();
        let y = zoo.ln.forward(x.clone());
        let g = backward(&y);
        row("load_layernorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.ln.gamma.val(), &g), "d_bias": grad(zoo.ln.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let x = data([2, 4, 3], 0.0, &ad).require_grad();
        let y = zoo.gn.forward(x.clone());
        let g = backward(&y);
        row("load_groupnorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.gn.gamma.as_ref().unwrap().val(), &g), "d_bias": grad(zoo.gn.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let ids = Tensor::<2, Int>::from_ints([[0, 4, 2], [1, 1, 3]], &ad);
        let y = zoo.emb.forward(ids);
        let g = backward(&y);
        row("load_embedding", json!({"y": flat(y), "d_weight": grad(zoo.emb.weight.val(), &g)}));
    }
    {
        let mut fresh = Zoo::init(&d);
        let result = fresh.load_from(&mut PytorchStore::from_file(ZOO).allow_partial(true)).unwrap();
        let filled = result.applied.iter().filter(|p| p.starts_with("lstm.")).count();
        let missing: Vec<&String> = result.missing.iter().map(|(p, _)| p).filter(|p| p.starts_with("lstm.")).collect();
        let mut unused = result.unused.clone();
        unused.sort();
        row("load_lstm", json!({"filled": filled, "missing": missing.len(), "unused": unused}));
    }

    // ---- 导出给 PyTorch ----
    let m = small(&d);
    // region: export
    let mut store = SafetensorsStore::from_file("small_export.safetensors")
        .with_to_adapter(BurnToPyTorchAdapter)
        .overwrite(true);
    m.save_into(&mut store).expect("save small_export.safetensors");
    // endregion: export
    let exported = std::fs::read("small_export.safetensors").unwrap();
    row("export_keys", json!({"tensors": header_lines(&exported)}));
    let x = data([2, 2, 3, 5], 0.0, &d) * 2.0;
    row("export_forward", json!({"payload_fnv": payload_fnv(&exported), "y": flat(m.forward(x))}));
    let naive = save(&m, Path::new("small_naive.safetensors"), None);
    row("export_no_adapter", json!({"tensors": header_lines(&naive)}));
    row("save_twice_bytes", json!({"identical": saved_twenty_times(&m, false)}));
    row("save_twice_clear_metadata", json!({"identical": saved_twenty_times(&m, true)}));

    // ---- 混合精度 ----
    // region: half
    let half = save(&m, Path::new("small_half.safetensors"), Some(Box::new(|s| {
        s.with_to_adapter(BurnToPyTorchAdapter.chain(HalfPrecisionAdapter::new()))
    })));
    // endregion: half
    let dtypes: Map<String, Value> = header(&half).as_object().unwrap().iter()
        .map(|(k, v)| (k.clone(), json!(match v[0].as_str().unwrap() { "F16" => "float16", "F32" => "float32", o => o })))
        .collect();
    row("half_dtypes", json!({"dtypes": dtypes}));
    {
        // region: half_load
        let mut back = Small::init(&d);
        let mut store = SafetensorsStore::from_file("small_half.safetensors")
            .with_from_adapter(PyTorchToBurnAdapter.chain(HalfPrecisionAdapter::new()));
        back.load_from(&mut store).expect("load small_half.safetensors");
        // endregion: half_load
        row("half_roundtrip", json!({"conv.weight": flat(back.conv.weight.val()),
            "lin.weight": flat(back.lin.weight.val().transpose()), "ln.weight": flat(back.ln.gamma.val())}));
    }
    {
        let lin = loaded_zoo(&d).lin;
        let x = data([2, 4], 0.0, &d) * 2.0;
        // region: autocast
        // No autocast: round the operands to bf16, multiply in f32, round the result.
        let bf16 = |t: Tensor<2>| t.cast(DType::BF16).cast(DType::F32);
        let w = bf16(lin.weight.val());
        let b = bf16(lin.bias.as_ref().unwrap().val().unsqueeze());
        let y = (bf16(x).matmul(w) + b).cast(DType::BF16);
        // endregion: autocast
        row("autocast_linear", json!({"dtype": torch_dtype(y.dtype()), "y": flat(y)}));
    }
    {
        let lin = loaded_zoo(&ad).lin;
        let loss = lin.forward(data([2, 4], 0.0, &ad)).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &lin);
        let lin = SgdConfig::new().init().step(0.1, lin, grads);
        row("grad_scaler", json!({"weight": flat(lin.weight.val().transpose()), "bias": flat(lin.bias.unwrap().val())}));
    }

    println!("{}", serde_json::to_string(&json!({"rows": rows})).unwrap());
}
