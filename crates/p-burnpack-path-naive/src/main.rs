//! Pitfall burnpack-path, the naive port: the model burn-onnx generated from model/a1.onnx
//! (build.rs, LoadStrategy::File), constructed with Model::default() as in burn-onnx's
//! examples. First on the build machine, as it is; then as on a machine that has only the
//! binary: the build's OUT_DIR .bpk is moved aside (and put back when the program ends,
//! panic or not), which is what `cargo clean`, a fresh CI runner or a container image with
//! only the binary amounts to. The second Model::default() ends the program with its panic.
use std::path::Path;

use burn::prelude::*;
use serde_json::json;

mod model {
    #[allow(dead_code)] // from_bytes() is generated too, and unused here
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
    }
}
use model::a1::Model;

/// Where burn-onnx wrote the weights at build time; the generated code.
const BUILD_BPK: &str = concat!(env!("OUT_DIR"), "/model/a1.bpk");
const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/model/a1.rs"));
const ONNX: &[u8] = include_bytes!("../model/a1.onnx");

// region: gone
/// The build's .bpk, moved aside while this value lives.
struct BuildDirGone;

impl BuildDirGone {
    fn new() -> Self {
        std::fs::rename(BUILD_BPK, format!("{BUILD_BPK}.aside")).expect("move the build's .bpk aside");
        BuildDirGone
    }
}

impl Drop for BuildDirGone {
    fn drop(&mut self) {
        // Runs during the panic's unwinding too: the next run finds the build as it was.
        let _ = std::fs::rename(format!("{BUILD_BPK}.aside"), BUILD_BPK);
    }
}
// endregion: gone

/// A text with this checkout's root written as $DIR, as the book does for every output.
fn shown(s: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().parent().unwrap();
    s.replace(root.to_str().unwrap(), "$DIR")
}

/// The generated `impl Default for Model`, as burn-onnx wrote it (the root as $DIR).
fn generated_default() -> String {
    let start = GENERATED.find("impl Default for Model").expect("no Default impl");
    let end = start + GENERATED[start..].find("\n}").unwrap() + 2;
    GENERATED[start..end].lines().map(|l| shown(l.trim_end())).collect::<Vec<_>>().join("\n")
}

/// The generated `from_file`, which `default()` calls, as burn-onnx wrote it.
fn generated_from_file() -> String {
    let fn_at = GENERATED.find("pub fn from_file").expect("no from_file");
    let start = GENERATED[..fn_at].rfind("    ///").unwrap_or(fn_at);
    let end = fn_at + GENERATED[fn_at..].find("\n    }").unwrap() + 6;
    GENERATED[start..end].lines().map(|l| l.strip_prefix("    ").unwrap_or(l)).collect::<Vec<_>>().join("\n")
}

fn fnv1a64(b: &[u8]) -> String {
    let h = b.iter().fold(0xcbf29ce484222325u64, |h, &x| (h ^ u64::from(x)).wrapping_mul(0x100000001b3));
    format!("{h:016x}")
}

fn input(device: &Device) -> Tensor<2> {
    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    Tensor::<2>::from_data(TensorData::new(x, [4, 4]), device)
}

fn main() {
    // A leftover of a run that was killed before it could put the file back.
    if !Path::new(BUILD_BPK).exists() && Path::new(&format!("{BUILD_BPK}.aside")).exists() {
        std::fs::rename(format!("{BUILD_BPK}.aside"), BUILD_BPK).unwrap();
    }
    let exe = std::env::current_exe().unwrap();
    let exe_in_target = exe.to_string_lossy().contains("/target/");

    // region: run
    // On the build machine, run from a working directory outside the crate: it works.
    // region: naive
    let model = Model::default();
    let logits = model.forward(input(&Device::flex()));
    // endregion: naive
    println!("{}", serde_json::to_string_pretty(&json!({
        "onnx_bytes": ONNX.len(),
        "onnx_fnv1a64": fnv1a64(ONNX),
        "generated_default": generated_default(),
        "generated_from_file": generated_from_file(),
        "default_reads": shown(BUILD_BPK),
        "binary_in_target_dir": exe_in_target,
        "cwd_is_crate_dir": std::env::current_dir().unwrap() == Path::new(env!("CARGO_MANIFEST_DIR")),
        "build_machine_logits": logits.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect::<Vec<_>>(),
    })).unwrap());

    // On a machine without the build directory.
    let _gone = BuildDirGone::new();
    let model = Model::default();
    println!("{:?}", model.forward(input(&Device::flex())).into_data());
    // endregion: run
}
