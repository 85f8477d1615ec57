//! dtype 与设备: the rows of experiments/reference/ref-1-tensor/dtype_device.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("to_double", out_dtype(to_double::run(data([2, 3], &d))));
    let l = to_long::run(floats(&HALVES, &d));
    row("to_long", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    let l = to_long_i64::run(floats(&HALVES, &d));
    row("to_long_i64", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    row("int_to_float", out_dtype(int_to_float::run(&d)));
    row("to_bool", outb(to_bool::run(floats(&[0.0, -0.5, 2.0, 0.0], &d))));
    row("to_device", out(to_device::run(data([2, 3], &d), &Device::flex())));
    row("f16_roundtrip", out(f16_roundtrip::run(data([3, 4], &d))));
    row("bf16_roundtrip", out(bf16_roundtrip::run(data([3, 4], &d))));

    row("device_default", out(device_default::run()));
}

mod to_double {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::F64)
    }
}

mod to_long {
    use burn::prelude::*;

    // 向零截断；dtype 是 Int 的默认（Device::flex() 上 int32）
    pub fn run(x: Tensor<1>) -> Tensor<1, Int> {
        x.int()
    }
}

mod to_long_i64 {
    use burn::prelude::*;
    use burn::tensor::IntDType;

    pub fn run(x: Tensor<1>) -> Tensor<1, Int> {
        x.cast(IntDType::I64)
    }
}

mod int_to_float {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..4, d).float()
    }
}

mod to_bool {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.bool()
    }
}

mod to_device {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, device: &Device) -> Tensor<2> {
        x.to_device(device)
    }
}

mod f16_roundtrip {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::F16).cast(DType::F32)
    }
}

mod bf16_roundtrip {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::BF16).cast(DType::F32)
    }
}

mod device_default {
    use burn::prelude::*;

    // 编译时选后端：Device::default() 取开了的 feature 里排在最前的一个，运行时不看有没有 GPU；
    // 这个 crate 只开了 flex，它就是 Device::flex()
    pub fn run() -> Tensor<1> {
        let device = Device::default();
        Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device)
    }
}
