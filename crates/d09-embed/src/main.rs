//! The same A1 model as crates/d09-onnx, but built with LoadStrategy::Embedded:
//! the weights live inside the executable; loading them reads no .bpk file at run time.
use burn::prelude::*;
use serde_json::json;

// region: model
mod model {
    #[allow(dead_code)] // from_bytes() is generated too, and unused here
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
    }
}
use model::a1::Model;
// endregion: model

const ONNX: &[u8] = include_bytes!("../model/a1.onnx");

fn fnv1a64(b: &[u8]) -> String {
    let h = b.iter().fold(0xcbf29ce484222325u64, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100000001b3)
    });
    format!("{h:016x}")
}

fn main() {
    // region: infer
    let device = Device::flex(); // inference only: no .autodiff()
    // The weights were compiled in: nothing to copy, no path to get wrong.
    let model = Model::from_embedded(&device);

    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [4, 4]), &device);
    let logits = model.forward(x);
    // endregion: infer

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
        "num_params": model.num_params(),
        "files_in_workdir": std::fs::read_dir(".").unwrap().count(),
        "shape": shape,
        "logits": values.into_iter().map(f64::from).collect::<Vec<_>>(),
        "bpk_in_binary": bpk_in_binary,
        "binary_bytes": exe_bytes.len(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
