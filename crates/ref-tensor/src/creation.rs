//! 创建: the rows of experiments/reference/ref-1-tensor/creation.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("from_data", out_dtype(from_data::run(&d)));
    row("zeros", out_dtype(zeros::run(&d)));
    row("ones", out_dtype(ones::run(&d)));
    row("full", out(full::run(&d)));
    row("arange_int", outi(arange_int::run(&d)));
    row("long_tensor", outi(long_tensor::run(&d)));
    row("arange_dtype", json!({"dtype": dtype_name(arange_dtype::run(&d))}));
    let t = arange_i64::run(&d);
    row("arange_i64", json!({"v": iv(&t), "dtype": dtype_name(t.dtype())}));
    row("arange_step", outi(arange_step::run(&d)));
    row("arange_float", out_dtype(arange_float::run(&d)));
    row("linspace", out(linspace::run(&d)));
    row("eye", out(eye::run(&d)));
    row("zeros_like", out(zeros_like::run(data([2, 3], &d))));
    row("ones_like", out(ones_like::run(data([2, 3], &d))));
    row("full_like", out(full_like::run(data([2, 3], &d))));
    let e = empty::run(&d);
    row("empty", json!({"shape": e.dims().to_vec(), "dtype": dtype_name(e.dtype())}));
}

mod from_data {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], d)
    }
}

mod zeros {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::zeros([2, 3], d)
    }
}

mod ones {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::ones([2, 3], d)
    }
}

mod full {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::full([2, 3], 7.0, d)
    }
}

mod arange_int {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange(0..5, d)
    }
}

mod long_tensor {
    use burn::prelude::*;

    // 整数张量是 Tensor<D, Int>
    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::from_data([3, 0, 2], d)
    }
}

mod arange_dtype {
    use burn::prelude::*;
    use burn::tensor::DType;

    // Int 的默认 dtype 随设备：Device::flex() 上是 int32
    pub fn run(d: &Device) -> DType {
        Tensor::<1, Int>::arange(0..5, d).dtype()
    }
}

mod arange_i64 {
    use burn::prelude::*;
    use burn::tensor::DType;

    // 设备和 dtype 一起给：(设备, DType::I64)
    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange(0..5, (d, DType::I64))
    }
}

mod arange_step {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange_step(0..10, 3, d)
    }
}

mod arange_float {
    use burn::prelude::*;

    // 没有浮点的 arange：先取整数，转成浮点，再乘步长
    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..4, d).float() * 0.25
    }
}

mod linspace {
    use burn::prelude::*;

    // 没有 linspace：0..5 个整数，除以 (5 - 1)，得到 0 到 1 的 5 个点
    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..5, d).float() / 4.0
    }
}

mod eye {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::eye(3, d)
    }
}

mod zeros_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.zeros_like()
    }
}

mod ones_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.ones_like()
    }
}

mod full_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.full_like(-1.5)
    }
}

mod empty {
    use burn::prelude::*;

    // 内容未定：只有形状和 dtype 可比
    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::empty([2, 3], d)
    }
}
