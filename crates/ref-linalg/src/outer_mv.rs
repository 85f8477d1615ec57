//! 外积与矩阵乘向量: the rows of experiments/reference/ref-6-linalg/outer_mv.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("outer", out(outer::run(data([3], &d), data([4], &d))));
    row("matvec", out(matvec::run(data([3, 4], &d), data([4], &d))));
}

mod outer {
    use burn::linalg::outer;
    use burn::prelude::*;

    // 泛型参数：输入的秩 D、结果的秩 D + 1、Float
    pub fn run(a: Tensor<1>, b: Tensor<1>) -> Tensor<2> {
        outer::<1, 2, Float>(a, b)
    }
}

mod matvec {
    use burn::linalg::matvec;
    use burn::prelude::*;

    pub fn run(m: Tensor<2>, v: Tensor<1>) -> Tensor<1> {
        matvec::<2, 1, Float>(m, v)
    }
}
