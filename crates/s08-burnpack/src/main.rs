//! Save A1's model to burnpack, load it into a freshly initialised model, compare; then
//! save a second time to the same path, without and with `overwrite(true)`.
//! Prints the same JSON structure as experiments/saveload/burnpack.py.
use burn::module::Param;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{BurnpackStore, ModuleSnapshot};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

#[derive(Module, Debug)]
struct Mlp {
    fc1: Linear,
    relu: Relu,
    fc2: Linear,
}

impl Mlp {
    /// Freshly initialised (random) weights, as a model is before it loads anything.
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

/// A1's weights: element k (1-based, PyTorch's [out, in] order) is 0.5·f(k), in f64,
/// rounded to f32 once; burn's Linear stores [in, out], so transpose. Bias o is 0.01·o.
fn linear(out: usize, inp: usize, f: fn(f64) -> f64, device: &Device) -> Linear {
    let w: Vec<f32> = (0..out * inp).map(|k| (0.5 * f((k + 1) as f64)) as f32).collect();
    let b: Vec<f32> = (0..out).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [out, inp]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [out]), device))),
    }
}

/// The same values in a fresh, contiguous [in, out] buffer (the A1 weight above is a
/// transposed view of an [out, in] buffer).
fn contiguous(l: &Linear, device: &Device) -> Linear {
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(l.weight.val().into_data(), device)),
        bias: l.bias.clone(),
    }
}

fn vec32<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_to_vec::<f32>().unwrap()
}

/// All parameters, flattened, in a fixed order, for a bit-for-bit comparison.
fn params(m: &Mlp) -> Vec<u32> {
    let mut v = vec32(m.fc1.weight.val());
    v.extend(vec32(m.fc1.bias.as_ref().unwrap().val()));
    v.extend(vec32(m.fc2.weight.val()));
    v.extend(vec32(m.fc2.bias.as_ref().unwrap().val()));
    v.into_iter().map(f32::to_bits).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn main() {
    let device = Device::flex();
    let model = Mlp {
        fc1: linear(HID, IN, f64::sin, &device),
        relu: Relu::new(),
        fc2: linear(OUT, HID, f64::cos, &device),
    };
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // region: roundtrip
    let mut store = BurnpackStore::from_file("a1");
    model.save_into(&mut store).expect("save");

    let mut fresh = Mlp::init(&device);
    let differs_before = params(&fresh) != params(&model);
    let mut store = BurnpackStore::from_file("a1");
    let result = fresh.load_from(&mut store).expect("load");

    let before = vec32(model.forward(x.clone()));
    let after = vec32(fresh.forward(x.clone()));
    let logits_bit_equal = before.iter().zip(&after).all(|(a, b)| a.to_bits() == b.to_bits());
    let params_bit_equal = params(&fresh) == params(&model);
    // endregion: roundtrip

    // region: layout
    let copy = Mlp {
        fc1: contiguous(&model.fc1, &device),
        relu: Relu::new(),
        fc2: contiguous(&model.fc2, &device),
    };
    let copied = vec32(copy.forward(x.clone()));
    let copy_bit_equal = copied.iter().zip(&after).all(|(a, b)| a.to_bits() == b.to_bits());
    // endregion: layout

    let mut files: Vec<String> = std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let file_bytes = std::fs::metadata("a1.bpk").unwrap().len();

    // region: overwrite
    let mut again = BurnpackStore::from_file("a1");
    let second_save = match model.save_into(&mut again) {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("Err: {e}"),
    };
    let mut again = BurnpackStore::from_file("a1").overwrite(true);
    let overwrite_save = match model.save_into(&mut again) {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("Err: {e}"),
    };
    // endregion: overwrite

    let out = json!({
        "logits": after.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(),
        "fresh_differs_before_load": differs_before,
        "logits_bit_equal": logits_bit_equal,
        "params_bit_equal": params_bit_equal,
        "contiguous_copy_logits_bit_equal": copy_bit_equal,
        "applied": sorted(result.applied),
        "missing": result.missing.len(),
        "files": files,
        "file_bytes": file_bytes,
        "second_save": second_save,
        "overwrite_save": overwrite_save,
        "fc1_weight_shape": fresh.fc1.weight.val().dims().to_vec(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
