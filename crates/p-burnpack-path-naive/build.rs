// region: build
use burn_onnx::{LoadStrategy, ModelGen};

fn main() {
    // The usual build script: OUT_DIR/model/a1.rs (the code) and OUT_DIR/model/a1.bpk (weights).
    ModelGen::new()
        .input("model/a1.onnx")
        .out_dir("model/")
        .load_strategy(LoadStrategy::File)
        .run_from_script();
}
// endregion: build
