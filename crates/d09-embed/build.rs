// region: build
use burn_onnx::{LoadStrategy, ModelGen};

fn main() {
    // Same ONNX file; the weights are compiled into the binary with include_bytes!.
    ModelGen::new()
        .input("model/a1.onnx")
        .out_dir("model/")
        .load_strategy(LoadStrategy::Embedded)
        .run_from_script();
}
// endregion: build
