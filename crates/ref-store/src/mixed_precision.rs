//! 混合精度: the rows of experiments/reference/ref-5-store/mixed_precision.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// A half-precision file as PyTorch's `model.half().state_dict()` shows it: each tensor's
/// dtype and its values (read back as f32).
fn half_file(path: &str) -> Value {
    let mut store = SafetensorsStore::from_file(path);
    let mut dtypes = Map::new();
    let mut values = Map::new();
    for (name, t) in store.get_all_tensors().unwrap() {
        let dtype = match t.dtype {
            DType::F16 => "float16",
            DType::F32 => "float32",
            _ => "other",
        };
        dtypes.insert(name.clone(), json!(dtype));
        let v: Vec<f64> = bridge::to_data(t).unwrap().convert::<f32>().try_to_vec::<f32>().unwrap()
            .into_iter().map(f64::from).collect();
        values.insert(name.clone(), json!(v));
    }
    json!({"dtypes": dtypes, "values": values})
}

fn torch_dtype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float32",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        _ => "other",
    }
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let m = small(&d);
    half_dtypes::save(&m, "small_half.safetensors");
    row("half_dtypes", half_file("small_half.safetensors"));
    half_dtypes_all::save(&m, "small_half_all.safetensors");
    row("half_dtypes_all", half_file("small_half_all.safetensors"));
    {
        let mut back = export_pytorch::Small::init(&d);
        half_roundtrip::load(&mut back, "small_half.safetensors");
        row("half_roundtrip", json!({"conv.weight": flat(back.conv.weight.val()),
            "lin.weight": flat(back.lin.weight.val().transpose()), "ln.weight": flat(back.ln.gamma.val())}));
    }
    {
        let lin = load_pytorch::load_linear(ZOO, &d).lin;
        let y = autocast_linear::run(&lin, data([2, 4], 0.0, &d) * 2.0);
        row("autocast_linear", json!({"dtype": torch_dtype(y.dtype()), "y": flat(y)}));
    }
    {
        let lin = grad_scaler::step(load_pytorch::load_linear(ZOO, &ad).lin, data([2, 4], 0.0, &ad));
        row("grad_scaler", json!({"weight": flat(lin.weight.val().transpose()), "bias": flat(lin.bias.unwrap().val())}));
    }
}

mod half_dtypes {
    use burn::prelude::*;
    use burn::store::{
        BurnToPyTorchAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot,
        SafetensorsStore,
    };

    pub fn save<M: Module>(model: &M, path: &str) {
        // HalfPrecisionAdapter::new() 默认不转 BatchNorm：它的四个张量留在 f32
        let adapter = BurnToPyTorchAdapter.chain(HalfPrecisionAdapter::new());
        let mut store = SafetensorsStore::from_file(path).with_to_adapter(adapter).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod half_dtypes_all {
    use burn::prelude::*;
    use burn::store::{
        BurnToPyTorchAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot,
        SafetensorsStore,
    };

    pub fn save<M: Module>(model: &M, path: &str) {
        // model.half() 把所有浮点张量都转成 f16：BatchNorm 要自己加进去
        let adapter = BurnToPyTorchAdapter.chain(HalfPrecisionAdapter::new().with_module("BatchNorm"));
        let mut store = SafetensorsStore::from_file(path).with_to_adapter(adapter).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod half_roundtrip {
    use burn::prelude::*;
    use burn::store::{
        HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot, PyTorchToBurnAdapter,
        SafetensorsStore,
    };

    pub fn load<M: Module>(model: &mut M, path: &str) {
        // 存的时候用的同一个 HalfPrecisionAdapter，反方向：f16 读回 f32
        let adapter = PyTorchToBurnAdapter.chain(HalfPrecisionAdapter::new());
        let mut store = SafetensorsStore::from_file(path).with_from_adapter(adapter);
        model.load_from(&mut store).expect("load safetensors");
    }
}

mod autocast_linear {
    use burn::nn::Linear;
    use burn::prelude::*;
    use burn::tensor::DType;

    /// burn 没有 autocast：操作数舍入成 bf16，在 f32 里乘加，结果再舍入成 bf16
    pub fn run(lin: &Linear, x: Tensor<2>) -> Tensor<2> {
        let bf16 = |t: Tensor<2>| t.cast(DType::BF16).cast(DType::F32);
        let w = bf16(lin.weight.val());
        let b = bf16(lin.bias.as_ref().unwrap().val().unsqueeze());
        (bf16(x).matmul(w) + b).cast(DType::BF16)
    }
}

mod grad_scaler {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    /// f32 训练不需要 GradScaler：它把 loss 放大、梯度缩回去，一步的结果就是普通的一步
    pub fn step(lin: Linear, x: Tensor<2>) -> Linear {
        let loss = lin.forward(x).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &lin);
        let mut optim = SgdConfig::new().init();
        optim.step(0.1, lin, grads)
    }
}
