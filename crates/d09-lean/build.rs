// region: build
use burn_onnx::{LoadStrategy, ModelGen};

fn main() {
    // Reads the committed ONNX file, writes OUT_DIR/model/a1.rs and OUT_DIR/model/a1.bpk.
    ModelGen::new()
        .input("model/a1.onnx")
        .out_dir("model/")
        .load_strategy(LoadStrategy::File)
        .run_from_script();
}
// endregion: build
