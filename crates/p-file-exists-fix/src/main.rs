//! Pitfall file-exists, the fix.
//! 1. The checkpoint loop with `.overwrite(true)`; and Module::save_file, which replaces the
//!    file without being asked.
//! 2. The nn.Sequential weights (committed in data/, written by
//!    experiments/pitfalls/file-exists/make_weights.py) loaded into named fields with key
//!    remapping, and into a Vec<Linear> without it; run on A1's inputs.
//! Prints the same JSON structure as experiments/pitfalls/file-exists/file_exists.py, plus
//! burn-only fields.
use std::collections::BTreeSet;

use burn::module::Param;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{
    BurnpackStore, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore,
    SafetensorsStore,
};
use serde_json::json;

const IN: usize = 4;
const HID: usize = 8;
const OUT: usize = 3;
const BATCH: usize = 4;

const NET_PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_net.pt");
const SEQ_ST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/a1_seq.safetensors");

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

// region: vec_model
/// The layers in a Vec, like the nn.Sequential; the ReLU has no parameters, so it is not in it.
#[derive(Module, Debug)]
struct SeqMlp {
    layers: Vec<Linear>,
    relu: Relu,
}

impl SeqMlp {
    fn init(device: &Device) -> Self {
        Self {
            layers: vec![LinearConfig::new(IN, HID).init(device), LinearConfig::new(HID, OUT).init(device)],
            relu: Relu::new(),
        }
    }
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.layers[1].forward(self.relu.forward(self.layers[0].forward(x)))
    }
}
// endregion: vec_model

/// Adds 0.01 to every parameter: stands in for one optimizer step.
fn step(l: Linear) -> Linear {
    Linear {
        weight: Param::from_tensor(l.weight.val() + 0.01),
        bias: l.bias.map(|b| Param::from_tensor(b.val() + 0.01)),
    }
}

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// All parameters, flattened in a fixed order, as bit patterns.
fn bits(m: &Mlp) -> Vec<u32> {
    [&m.fc1, &m.fc2]
        .iter()
        .flat_map(|l| {
            let mut v = nums(l.weight.val());
            v.extend(nums(l.bias.as_ref().unwrap().val()));
            v
        })
        .map(|x| (x as f32).to_bits())
        .collect()
}

fn bits_of(t: &Tensor<2>) -> Vec<u32> {
    t.clone().into_data().try_to_vec::<f32>().unwrap().into_iter().map(f32::to_bits).collect()
}

fn files() -> Vec<String> {
    let mut f: Vec<String> = std::fs::read_dir(".")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    f.sort();
    f
}

// region: check_keys
/// The file's keys (after the store's remapping) against the model's parameter paths:
/// (only in the file, only in the model). Both empty means every tensor has its place.
fn key_diff(store: &mut impl ModuleStore, model: &impl ModuleSnapshot) -> (Vec<String>, Vec<String>) {
    let file: BTreeSet<String> = store.keys().unwrap().into_iter().collect();
    let wanted: BTreeSet<String> = model.collect(None, None, false).into_iter().map(|t| t.name).collect();
    (file.difference(&wanted).cloned().collect(), wanted.difference(&file).cloned().collect())
}
// endregion: check_keys

fn main() {
    let device = Device::flex();
    let x: Vec<f32> = (0..BATCH * IN).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [BATCH, IN]), &device);

    // 1. Checkpoints to one path.
    let mut model = Mlp::init(&device);
    let mut saves = vec![];
    // region: checkpoint
    for s in 1..=3 {
        model = Mlp { fc1: step(model.fc1), relu: model.relu, fc2: step(model.fc2) };
        let mut store = BurnpackStore::from_file("checkpoint").overwrite(true);
        model.save_into(&mut store).expect("save checkpoint");
        saves.push(format!("step {s}: saved"));
    }
    // endregion: checkpoint
    let files_after = files();
    // region: reload
    let mut last = Mlp::init(&device);
    last.load_from(&mut BurnpackStore::from_file("checkpoint")).expect("load checkpoint");
    // endregion: reload
    let reloaded_is_last_step = bits(&last) == bits(&model);

    // region: save_file
    // Module::save_file (burn-core's own record): replaces the file without being asked.
    let mut save_file = vec![];
    for _ in 1..=3 {
        save_file.push(match model.clone().save_file("record") {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("Err: {e}"),
        });
    }
    let record_loads_back = bits(&Mlp::init(&device).load_file("record")) == bits(&model);
    // endregion: save_file

    // region: check_save
    // A save that must not silently fail: match the Result, and print the error with {e}.
    let refused = match model.save_into(&mut BurnpackStore::from_file("checkpoint")) {
        Ok(()) => "ok".to_string(),
        Err(e) => format!("{e}"),
    };
    // endregion: check_save

    // 2. nn.Sequential keys.
    // region: check_load
    // The same for a load: the error printed with {e} rather than through .expect's {:?}.
    let naive_load = match Mlp::init(&device).load_from(&mut PytorchStore::from_file(NET_PT)) {
        Ok(r) => format!("Ok: {} applied", r.applied.len()),
        Err(e) => format!("{e}"),
    };
    // endregion: check_load
    let mut raw = PytorchStore::from_file(NET_PT);
    let naive_diff = key_diff(&mut raw, &Mlp::init(&device));

    // region: load
    let mut store = PytorchStore::from_file(NET_PT)
        .with_key_remapping(r"^layers\.0\.", "fc1.")
        .with_key_remapping(r"^layers\.2\.", "fc2.");
    let mut net = Mlp::init(&device);
    let diff = key_diff(&mut store, &net);
    let result = net.load_from(&mut store).expect("load a1_net.pt");
    let logits = net.forward(x.clone());
    // endregion: load
    let mut applied = result.applied.clone();
    applied.sort();
    let remapped_keys = store.keys().unwrap();

    // region: load_vec
    let mut seq = SeqMlp::init(&device);
    let mut store = PytorchStore::from_file(NET_PT); // no remapping
    let vec_keys = store.keys().unwrap();
    seq.load_from(&mut store).expect("load a1_net.pt into Vec<Linear>");
    let logits_vec = seq.forward(x.clone());
    // endregion: load_vec

    // region: load_st
    let mut store = SafetensorsStore::from_file(SEQ_ST)
        .with_key_remapping(r"^0\.", "fc1.")
        .with_key_remapping(r"^2\.", "fc2.")
        .with_from_adapter(PyTorchToBurnAdapter); // [out, in] -> [in, out]
    let mut from_st = Mlp::init(&device);
    from_st.load_from(&mut store).expect("load a1_seq.safetensors");
    let logits_seq = from_st.forward(x.clone());
    // endregion: load_st

    // FNV-1a (64 bit) of the little-endian f32 bytes of every parameter, in PyTorch's order
    // and layout ([out, in] weights), as file_exists.py does.
    let mut h = 0xcbf29ce484222325u64;
    for l in [&net.fc1, &net.fc2] {
        let w = l.weight.val().transpose().into_data().try_to_vec::<f32>().unwrap();
        let b = l.bias.as_ref().unwrap().val().into_data().try_to_vec::<f32>().unwrap();
        for byte in w.iter().chain(&b).flat_map(|v| v.to_le_bytes()) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100000001b3);
        }
    }
    let out = json!({
        "checkpoint": {
            "saves": saves,
            "files": files_after,
            "reloaded_is_last_step": reloaded_is_last_step,
        },
        "save_file": {
            "results": save_file,
            "record_loads_back": record_loads_back,
            "files": files(),
        },
        "refused": refused,
        "keys": {
            "net_pt": PytorchStore::from_file(NET_PT).keys().unwrap(),
            "seq_safetensors": SafetensorsStore::from_file(SEQ_ST).keys().unwrap(),
        },
        "remapped_keys": remapped_keys,
        "key_diff": {
            "naive": {"only_in_file": naive_diff.0, "only_in_model": naive_diff.1},
            "remapped": {"only_in_file": diff.0, "only_in_model": diff.1},
        },
        "applied": applied,
        "unused": result.unused,
        "vec_keys": vec_keys,
        "weights_fnv": format!("{h:016x}"),
        "naive_load": naive_load,
        "vec_equals_remapped": bits_of(&logits_vec) == bits_of(&logits),
        "logits": nums(logits),
        "logits_seq": nums(logits_seq),
        "logits_vec": nums(logits_vec),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
