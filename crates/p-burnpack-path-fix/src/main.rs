//! Pitfall burnpack-path, the fix: the same model, built twice by build.rs (LoadStrategy::File
//! into OUT_DIR/file/, LoadStrategy::Embedded into OUT_DIR/embed/). The program packages
//! itself as it would be shipped (deploy/app and deploy/a1.bpk), moves the build's OUT_DIR
//! .bpk files aside (put back when it ends), and runs the packaged copy from a third
//! directory. The copy loads the weights (a) from a path relative to its own executable and
//! (b) from the bytes compiled into it, and prints its logits; this program adds the checks.
use std::path::{Path, PathBuf};
use std::process::Command;

use burn::prelude::*;
use serde_json::{json, Value};

mod file {
    #[allow(dead_code)] // Default (the build path) and from_bytes() are generated too, unused
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/file/a1.rs"));
    }
}
mod embed {
    #[allow(dead_code)] // Default and from_bytes() are generated too, unused
    pub mod a1 {
        include!(concat!(env!("OUT_DIR"), "/embed/a1.rs"));
    }
}

const FILE_BPK: &str = concat!(env!("OUT_DIR"), "/file/a1.bpk");
const EMBED_BPK: &str = concat!(env!("OUT_DIR"), "/embed/a1.bpk");
const ONNX: &[u8] = include_bytes!("../model/a1.onnx");

/// The build's .bpk files, moved aside while this value lives.
struct BuildDirGone;

impl BuildDirGone {
    fn new() -> Self {
        for f in [FILE_BPK, EMBED_BPK] {
            std::fs::rename(f, format!("{f}.aside")).expect("move the build's .bpk aside");
        }
        BuildDirGone
    }
}

impl Drop for BuildDirGone {
    fn drop(&mut self) {
        for f in [FILE_BPK, EMBED_BPK] {
            let _ = std::fs::rename(format!("{f}.aside"), f);
        }
    }
}

fn input(device: &Device) -> Tensor<2> {
    let x: Vec<f32> = (0..16).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    Tensor::<2>::from_data(TensorData::new(x, [4, 4]), device)
}

fn nums(t: Tensor<2>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

// region: check
/// Before shipping: the weights file this binary will read, resolved the way it will be on
/// the target machine, must exist. Fails with the path it looked at.
fn weights_path() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.parent().ok_or("executable has no directory")?.join("a1.bpk");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("no a1.bpk next to {}", exe.file_name().unwrap_or_default().to_string_lossy()))
    }
}
// endregion: check

/// The packaged copy: what runs on the target machine.
fn serve() {
    let device = Device::flex();
    // region: relative
    // The .bpk ships next to the executable; the path is worked out at run time.
    let path = weights_path().expect("weights file");
    let model = file::a1::Model::from_file(&path, &device);
    // endregion: relative
    let relative = nums(model.forward(input(&device)));

    // region: embedded
    // The .bpk was compiled in with include_bytes!: no file at run time.
    let model = embed::a1::Model::from_embedded(&device);
    // endregion: embedded
    let embedded = nums(model.forward(input(&device)));

    println!("{}", json!({ "relative": relative, "embedded": embedded }));
}

fn files(dir: &str) -> Vec<String> {
    let mut f: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    f.sort();
    f
}

fn fnv1a64(b: &[u8]) -> String {
    let h = b.iter().fold(0xcbf29ce484222325u64, |h, &x| (h ^ u64::from(x)).wrapping_mul(0x100000001b3));
    format!("{h:016x}")
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("serve") {
        return serve();
    }
    // Leftovers of a run that was killed before it could put the files back.
    for f in [FILE_BPK, EMBED_BPK] {
        if !Path::new(f).exists() && Path::new(&format!("{f}.aside")).exists() {
            std::fs::rename(format!("{f}.aside"), f).unwrap();
        }
    }
    // The check, run where cargo put the binary (target/release), before packaging.
    let check_before_packaging = weights_path();

    // region: ship
    // Package: the binary and its weights file, side by side.
    std::fs::create_dir("deploy").unwrap();
    std::fs::copy(std::env::current_exe().unwrap(), "deploy/app").unwrap();
    std::fs::copy(FILE_BPK, "deploy/a1.bpk").unwrap();
    // On the target machine: no build directory, another working directory.
    let gone = BuildDirGone::new();
    std::fs::create_dir("elsewhere").unwrap();
    let run = Command::new(Path::new("deploy/app").canonicalize().unwrap())
        .arg("serve")
        .current_dir("elsewhere")
        .output()
        .unwrap();
    let build_bpk_present = Path::new(FILE_BPK).exists() || Path::new(EMBED_BPK).exists();
    drop(gone);
    // endregion: ship

    assert!(run.status.success(), "the packaged copy failed:\n{}", String::from_utf8_lossy(&run.stderr));
    let served: Value = serde_json::from_slice(&run.stdout).unwrap();
    let out = json!({
        "onnx_bytes": ONNX.len(),
        "onnx_fnv1a64": fnv1a64(ONNX),
        "build_bpk_present_while_shipped": build_bpk_present,
        "shipped_files": files("deploy"),
        "check_before_packaging": match check_before_packaging {
            Ok(_) => "Ok".to_string(),
            Err(e) => format!("Err: {e}"),
        },
        "embedded_equals_relative": served["embedded"] == served["relative"],
        "logits": served["relative"],
        "logits_embedded": served["embedded"],
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
