//! A1's forward pass, imported from the ONNX file PyTorch exported (model/a1.onnx).
//! build.rs runs burn-onnx, which writes OUT_DIR/model/a1.rs (the model code) and
//! OUT_DIR/model/a1.bpk (the weights). Inference runs on Device::flex(), no autodiff.
//! Prints the same fields as experiments/deploy/export.py.
use burn::prelude::*;
use burn_store::ModuleSnapshot;
use serde_json::{json, Map};

// region: model
mod model {
    #[allow(dead_code)] // from_bytes() is generated too, and unused here
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
    }
}
use model::a1::Model;
// endregion: model

/// The weights file burn-onnx wrote at build time, and the code it generated.
const BPK_BUILT: &str = concat!(env!("OUT_DIR"), "/model/a1.bpk");
const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
const ONNX: &[u8] = include_bytes!("../model/a1.onnx");

fn fnv1a64(b: &[u8]) -> String {
    let h = b.iter().fold(0xcbf29ce484222325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100000001b3)
    });
    format!("{h:016x}")
}

/// The generated forward method, line by line, as burn-onnx wrote it.
fn generated_forward() -> Vec<String> {
    let start = GENERATED.find("pub fn forward").expect("no forward in generated code");
    let end = start + GENERATED[start..].find("\n    }").unwrap();
    GENERATED[start..end].lines().map(|l| l.trim().to_string()).collect()
}

fn main() {
    // region: infer
    let device = Device::flex(); // inference only: no .autodiff()
    // Ship the weights as a file beside the binary: copy the .bpk into the working
    // directory, then load it from there by a path we choose.
    std::fs::copy(BPK_BUILT, "a1.bpk").unwrap();
    let model = Model::from_file("a1.bpk", &device);

    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [4, 4]), &device);
    let logits = model.forward(x);
    // endregion: infer

    // region: missing
    // The same loader, pointed at a file that is not there.
    std::panic::set_hook(Box::new(|_| {}));
    let missing = std::panic::catch_unwind(|| Model::from_file("missing.bpk", &Device::flex()));
    let _ = std::panic::take_hook();
    let message = match missing {
        Ok(_) => "no panic".to_string(),
        Err(e) => e
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| "non-string panic".to_string()),
    };
    // endregion: missing

    // Parameter names and shapes inside the imported model, as burn stores them.
    // Their values, renamed to PyTorch's names, weights back in [out, in] order.
    let mut params = Map::new();
    let mut weights = Map::new();
    for t in model.collect(None, None, false) {
        let dims = t.shape.to_vec();
        params.insert(t.name.clone(), json!(dims));
        let bytes = t.to_bytes().unwrap();
        let v: Vec<f64> = bytes
            .chunks_exact(4)
            .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
            .collect();
        let v = if dims.len() == 2 {
            let (rows, cols) = (dims[0], dims[1]); // [in, out]
            (0..cols).flat_map(|o| (0..rows).map(move |i| (o, i))).map(|(o, i)| v[i * cols + o]).collect()
        } else {
            v
        };
        weights.insert(t.name.replace("linear", "fc"), json!(v));
    }
    let shape = logits.dims().to_vec();
    let values: Vec<f32> = logits.into_data().try_to_vec::<f32>().unwrap();
    let exe = std::env::current_exe().unwrap();
    // Is the whole .bpk that burn-onnx wrote to be found, byte for byte, in this executable?
    let bpk = std::fs::read(concat!(env!("OUT_DIR"), "/model/a1.bpk")).unwrap();
    let exe_bytes = std::fs::read(&exe).unwrap();
    let bpk_in_binary = exe_bytes.windows(bpk.len()).any(|w| w == bpk.as_slice());
    let out = json!({
        "onnx_bytes": ONNX.len(),
        "onnx_fnv1a64": fnv1a64(ONNX),
        "bpk_bytes": std::fs::metadata("a1.bpk").unwrap().len(),
        "num_params": model.num_params(),
        "burn_params": params,
        "weights": weights,
        "generated_forward": generated_forward(),
        // Model::default() reads the .bpk from the absolute OUT_DIR path of the build.
        "default_path_is_build_dir": GENERATED.contains(&format!("\"{BPK_BUILT}\"")),
        "missing_file_panic": message,
        "shape": shape,
        "logits": values.into_iter().map(f64::from).collect::<Vec<_>>(),
        "bpk_in_binary": bpk_in_binary,
        "binary_bytes": exe_bytes.len(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
