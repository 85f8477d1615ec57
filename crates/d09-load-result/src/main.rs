//! A1's forward pass from the same ONNX import as d09-onnx (LoadStrategy::File), but the
//! weights are loaded through a function that returns a Result instead of the generated
//! Model::from_file, which panics. A missing file comes back as an Err value.
//! crates/d09-lean is this file with burn's features cut to std and flex.
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot};
use serde_json::json;

mod model {
    #[allow(dead_code)] // from_file(), from_bytes() and Default are generated too, unused here
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
    }
}
use model::a1::Model;

const BPK_BUILT: &str = concat!(env!("OUT_DIR"), "/model/a1.bpk");
const ONNX: &[u8] = include_bytes!("../model/a1.onnx");
const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/model/a1.rs"));

/// The body of a generated constructor, from its signature to its closing brace.
fn generated_fn(name: &str) -> &'static str {
    let start = GENERATED.find(&format!("pub fn {name}")).expect("constructor not generated");
    let end = start + GENERATED[start..].find("\n    }").unwrap();
    &GENERATED[start..end]
}

// region: load
/// What the generated from_file does, with `?` where it has `unwrap_or_else(panic!)`.
fn load(path: &str, device: &Device) -> Result<Model, burn_store::burn_pack::Error> {
    let mut model = Model::new(device); // structure only: random weights until load_from
    model.load_from(&mut BurnpackStore::from_file(path))?;
    Ok(model)
}
// endregion: load

fn fnv1a64(b: &[u8]) -> String {
    let h = b.iter().fold(0xcbf29ce484222325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100000001b3)
    });
    format!("{h:016x}")
}

fn main() {
    // region: infer
    let device = Device::flex();
    std::fs::copy(BPK_BUILT, "a1.bpk").unwrap();
    // A file that is not there: an Err the caller can report, no panic.
    let missing = load("missing.bpk", &device);
    let missing_error = match &missing {
        Ok(_) => "no error".to_string(),
        Err(e) => e.to_string(),
    };
    let model = match load("a1.bpk", &device) {
        Ok(model) => model,
        Err(e) => {
            eprintln!("cannot load weights: {e}");
            std::process::exit(1);
        }
    };
    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [4, 4]), &device);
    let logits = model.forward(x);
    // endregion: infer

    let shape = logits.dims().to_vec();
    let values: Vec<f32> = logits.into_data().try_to_vec::<f32>().unwrap();
    // What the generated constructors do on a load error.
    let panics = |name| generated_fn(name).contains("panic!(");
    let out = json!({
        "generated": {
            "from_file_panics": panics("from_file"),
            "from_bytes_panics": panics("from_bytes"),
            "new_is_pub": GENERATED.contains("pub fn new(device: &Device) -> Self"),
        },
        "missing_is_err": missing.is_err(),
        "missing_error": missing_error,
        "onnx_bytes": ONNX.len(),
        "onnx_fnv1a64": fnv1a64(ONNX),
        "num_params": model.num_params(),
        "shape": shape,
        "logits": values.into_iter().map(f64::from).collect::<Vec<_>>(),
        "binary_bytes": std::fs::metadata(std::env::current_exe().unwrap()).unwrap().len(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
