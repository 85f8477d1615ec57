//! 填充: the rows of experiments/reference/ref-7-ops/padding.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("pad_constant", out(pad_constant::run(data([1, 2, 3], &d))));
    row("pad_reflect", out(pad_reflect::run(data([1, 1, 3, 4], &d))));
    row("pad_replicate", out(pad_replicate::run(data([1, 1, 3, 4], &d))));
    row("pad_circular", out(pad_circular::run(data([1, 2, 5], &d), 1, 2)));
}

mod pad_constant {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // (左, 右, 上, 下)：和 F.pad 的顺序一样，从最后一维往前
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.pad((1, 2, 0, 1), PadMode::Constant(0.5))
    }
}

mod pad_reflect {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        x.pad((2, 2, 1, 1), PadMode::Reflect)
    }
}

mod pad_replicate {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // replicate 在 burn 里叫 Edge
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        x.pad((1, 1, 2, 0), PadMode::Edge)
    }
}

mod pad_circular {
    use burn::prelude::*;

    // 没有 circular：左边接上末尾的 left 个，右边接上开头的 right 个
    pub fn run(x: Tensor<3>, left: usize, right: usize) -> Tensor<3> {
        let w = x.dims()[2];
        let head = x.clone().narrow(2, w - left, left);
        let tail = x.clone().narrow(2, 0, right);
        Tensor::cat(vec![head, x, tail], 2)
    }
}
