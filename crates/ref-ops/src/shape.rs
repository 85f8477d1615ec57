//! 形状: the rows of experiments/reference/ref-7-ops/shape.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("movedim", out(movedim::run(data([2, 3, 4], &d))));
    row("unfold_dim", out(unfold_dim::run(data([2, 7], &d))));
}

mod movedim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.movedim(1, -1)
    }
}

mod unfold_dim {
    use burn::prelude::*;

    // 第 1 维上长 3、步长 2 的窗口：[2, 7] → [2, 窗口数 3, 3]
    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unfold(1, 3, 2)
    }
}
