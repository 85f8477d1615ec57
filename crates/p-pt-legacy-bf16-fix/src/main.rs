//! Pitfall pt-legacy-bf16, the fix: the legacy .pt loaded as it is (it needs nothing), the
//! bfloat16 .pt converted to F32 after loading (files committed in data/, written by
//! experiments/pitfalls/pt-legacy-bf16/make_weights.py), both run on f32 inputs. Prints the
//! same JSON structure as experiments/pitfalls/pt-legacy-bf16/legacy_bf16.py, plus the checks.
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleSnapshot, PytorchStore};
use burn::tensor::DType;
use serde_json::{json, Map, Value};

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const LEGACY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_legacy.pt");
const BF16: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_bf16.pt");

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

impl Mlp {
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

// region: check
/// Every float parameter must have the dtype the inputs will have; name the first that does not.
fn check_param_dtypes(model: &impl ModuleSnapshot, want: DType) -> Result<(), String> {
    for t in model.collect(None, None, false) {
        if t.dtype != want {
            return Err(format!("parameter {} is {:?}, the inputs are {:?}", t.name, t.dtype, want));
        }
    }
    Ok(())
}
// endregion: check

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// FNV-1a (64 bit) of the little-endian f32 bytes of every parameter, in PyTorch's order and
/// layout (fc1.weight [out, in], fc1.bias, fc2.weight, fc2.bias), as legacy_bf16.py does.
fn weights_fnv(m: &Mlp) -> String {
    let mut h = 0xcbf29ce484222325u64;
    for l in [&m.fc1, &m.fc2] {
        let w = l.weight.val().transpose().into_data().try_to_vec::<f32>().unwrap();
        let b = l.bias.as_ref().unwrap().val().into_data().try_to_vec::<f32>().unwrap();
        for byte in w.iter().chain(&b).flat_map(|v| v.to_le_bytes()) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100000001b3);
        }
    }
    format!("{h:016x}")
}

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // What the naive load leaves behind, for the check below.
    let mut naive = Mlp::init(&device);
    naive.load_from(&mut PytorchStore::from_file(BF16)).expect("load a1_bf16.pt");
    let naive_check = check_param_dtypes(&naive, x.dtype());

    // The legacy file: the same code as the naive port.
    let mut model_legacy = Mlp::init(&device);
    model_legacy.load_from(&mut PytorchStore::from_file(LEGACY)).expect("load a1_legacy.pt");

    // region: fix_bf16
    // PytorchStore takes no adapter: load as the file says (BF16), then re-apply the
    // parameters to a fresh f32 model through a ModuleRecord that casts to the module's dtype.
    let mut loaded = Mlp::init(&device);
    loaded.load_from(&mut PytorchStore::from_file(BF16)).expect("load a1_bf16.pt");
    let model_bf16 = Mlp::init(&device).load_record(loaded.into_record().cast_to_module_dtype());
    // endregion: fix_bf16

    // region: run_check
    check_param_dtypes(&model_legacy, x.dtype()).expect("a1_legacy.pt");
    check_param_dtypes(&model_bf16, x.dtype()).expect("a1_bf16.pt");
    // endregion: run_check

    let mut out = Map::new();
    for (key, model) in [("legacy", &model_legacy), ("bf16", &model_bf16)] {
        out.insert(key.into(), json!({
            "param_dtype": format!("{:?}", model.fc1.weight.val().dtype()),
            "weights_fnv": weights_fnv(model),
            "logits": nums(model.forward(x.clone())),
        }));
    }
    out.insert("check".into(), json!({
        "naive": match naive_check { Ok(()) => "ok".to_string(), Err(e) => format!("Err: {e}") },
        "fixed_legacy": check_param_dtypes(&model_legacy, x.dtype()).is_ok(),
        "fixed_bf16": check_param_dtypes(&model_bf16, x.dtype()).is_ok(),
    }));
    println!("{}", serde_json::to_string_pretty(&Value::Object(out)).unwrap());
}
