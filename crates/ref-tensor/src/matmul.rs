//! 矩阵乘: the rows of experiments/reference/ref-1-tensor/matmul.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("matmul_2d", out(matmul_2d::run(data([3, 4], &d), data([4, 2], &d))));
    row("bmm", out(bmm::run(data([2, 3, 4], &d), data([2, 4, 5], &d))));
    row("matmul_bcast", out(matmul_bcast::run(data([2, 3, 4], &d), data([1, 4, 5], &d))));
    row("matmul_3d_2d", out(matmul_3d_2d::run(data([2, 3, 4], &d), data([4, 5], &d))));
    row("dot", scalar(dot::run(data([4], &d), data([4], &d) * 2.0).into_scalar::<f32>()));
}

mod matmul_2d {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.matmul(b)
    }
}

mod bmm {
    use burn::prelude::*;

    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        a.matmul(b)
    }
}

mod matmul_bcast {
    use burn::prelude::*;

    // 长度为 1 的批维会广播
    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        a.matmul(b)
    }
}

mod matmul_3d_2d {
    use burn::prelude::*;

    // matmul 只收同秩的张量：w 先升成 [1, 4, 5]，再广播
    pub fn run(a: Tensor<3>, w: Tensor<2>) -> Tensor<3> {
        a.matmul(w.unsqueeze::<3>())
    }
}

mod dot {
    use burn::prelude::*;

    // 只有一个元素的 Tensor<1>
    pub fn run(a: Tensor<1>, b: Tensor<1>) -> Tensor<1> {
        a.dot(b)
    }
}
