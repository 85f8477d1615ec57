//! The everyday route: `Module::save_file` / `load_file` (burnpack). Saving twice to the same
//! path with it (overwrites) and with `BurnpackStore` (refuses). Then A1's weights from a
//! float64 `.pt` (data/, written by experiments/saveload/make_weights_more.py) loaded with
//! `PytorchStore::get_all_tensors` + `ModuleSnapshot::apply` and a chosen adapter chain.
//! Prints the same JSON structure as experiments/saveload/save_file.py.
use burn::module::Param;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{
    BurnpackStore, FloatCastAdapter, ModuleAdapter, ModuleSnapshot, ModuleStore,
    PyTorchToBurnAdapter, PytorchStore,
};
use burn::tensor::DType;
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_seq_f64.pt");

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

impl Mlp {
    /// Freshly initialised (random) weights.
    fn init(device: &Device) -> Self {
        Self {
            fc1: LinearConfig::new(IN, HID).init(device),
            relu: Relu::new(),
            fc2: LinearConfig::new(HID, OUT).init(device),
        }
    }
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.fc2.forward(self.relu.forward(self.fc1.forward(x)))
    }
}

/// A1's weights (element k of PyTorch's [out, in] is 0.5·f(k), f64 rounded once to f32),
/// written straight into a contiguous [in, out] buffer. Bias o is 0.01·o.
fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let mut w = vec![0f32; out * inp];
    for o in 0..out {
        for i in 0..inp {
            w[i * out + o] = (0.5 * f((o * inp + i + 1) as f64)) as f32;
        }
    }
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [inp, out]), device)),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn params(m: &Mlp) -> Vec<Vec<u32>> {
    let b = m.fc1.bias.as_ref().unwrap();
    let b2 = m.fc2.bias.as_ref().unwrap();
    [m.fc1.weight.val().into_data(), b.val().into_data(), m.fc2.weight.val().into_data(), b2.val().into_data()]
        .into_iter()
        .map(|d| d.try_to_vec::<f32>().unwrap().into_iter().map(f32::to_bits).collect())
        .collect()
}

fn files() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);
    let model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };

    // region: save_file
    model.clone().save_file("a1").expect("save_file");

    let loaded = Mlp::init(&device).load_file("a1");
    let logits_loaded = loaded.forward(x.clone());
    // endregion: save_file
    let files_after_save = files();
    let params_bit_equal = params(&loaded) == params(&model);

    // region: overwrite
    let other = Mlp::init(&device); // different (random) weights
    let second_save = match other.clone().save_file("a1") {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("Err: {e}"),
    };
    let reread = Mlp::init(&device).load_file("a1");
    let second_write_wins = params(&reread) == params(&other);

    let burnpack_store_save = match model.save_into(&mut BurnpackStore::from_file("a1")) {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("Err: {e}"),
    };
    // endregion: overwrite

    // region: pt_naive
    let mut store = PytorchStore::from_file(PT)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.");
    let mut naive = Mlp::init(&device);
    naive.load_from(&mut store).expect("load .pt");
    let naive_weight_dtype = format!("{:?}", naive.fc1.weight.val().dtype());
    // endregion: pt_naive

    // region: pt_apply
    let mut store = PytorchStore::from_file(PT)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.");
    let tensors: Vec<_> = store.get_all_tensors().expect("read .pt").values().cloned().collect();

    let mut model_pt = Mlp::init(&device);
    let result = model_pt.apply(
        tensors,
        None, // no filter
        Some(Box::new(PyTorchToBurnAdapter.chain(FloatCastAdapter::to(DType::F32)))),
        true, // skip enum variants, as PytorchStore does
    );
    assert!(result.errors.is_empty() && result.missing.is_empty(), "{result}");
    let logits_pt = model_pt.forward(x.clone());
    // endregion: pt_apply
    let mut applied = result.applied.clone();
    applied.sort();

    let out = json!({
        "files_after_save": files_after_save,
        "params_bit_equal": params_bit_equal,
        "logits_loaded": nums(logits_loaded),
        "second_save": second_save,
        "second_write_wins": second_write_wins,
        "burnpack_store_save": burnpack_store_save,
        "naive_weight_dtype": naive_weight_dtype,
        "applied": applied,
        "missing": result.missing.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
        "unused": result.unused,
        "errors": result.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        "weight_dtype": format!("{:?}", model_pt.fc1.weight.val().dtype()),
        "logits_pt": nums(logits_pt),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
