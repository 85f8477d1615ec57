// region: build
use burn_onnx::{LoadStrategy, ModelGen};

fn main() {
    // The same ONNX file twice: OUT_DIR/file/ loads a .bpk at run time from a path the
    // program chooses; OUT_DIR/embed/ compiles the .bpk into the binary.
    ModelGen::new()
        .input("model/a1.onnx")
        .out_dir("file/")
        .load_strategy(LoadStrategy::File)
        .run_from_script();
    ModelGen::new()
        .input("model/a1.onnx")
        .out_dir("embed/")
        .load_strategy(LoadStrategy::Embedded)
        .run_from_script();
}
// endregion: build
