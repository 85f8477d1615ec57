//! 矩阵范数: the rows of experiments/reference/ref-6-linalg/matrix_norms.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("matrix_norm_fro", out(matrix_norm_fro::run(rough([2, 3, 4], &d))));
    row("matrix_norm_1", out(matrix_norm_1::run(rough([2, 3, 4], &d))));
    row("matrix_norm_inf", out(matrix_norm_inf::run(rough([2, 3, 4], &d))));
    row("matrix_norm_2", out(matrix_norm_2::run(rough([2, 3, 4], &d))));
    row("matrix_norm_nuc", out(matrix_norm_nuc::run(rough([2, 3, 4], &d))));
}

mod matrix_norm_fro {
    use burn::linalg::{vector_norm_dims, Norm};
    use burn::prelude::*;

    // Frobenius 范数就是最后两维上的向量 2-范数
    pub fn run(x: Tensor<3>) -> Tensor<1> {
        vector_norm_dims(x, Norm::L2, &[1, 2]).squeeze_dims::<1>(&[1, 2])
    }
}

mod matrix_norm_1 {
    use burn::linalg::l1_norm;
    use burn::prelude::*;

    // 列绝对值和（对行归约）的最大值
    pub fn run(x: Tensor<3>) -> Tensor<1> {
        l1_norm(x, 1).max_dim(2).squeeze_dims::<1>(&[1, 2])
    }
}

mod matrix_norm_inf {
    use burn::linalg::l1_norm;
    use burn::prelude::*;

    // 行绝对值和（对列归约）的最大值
    pub fn run(x: Tensor<3>) -> Tensor<1> {
        l1_norm(x, 2).max_dim(1).squeeze_dims::<1>(&[1, 2])
    }
}

mod matrix_norm_2 {
    use burn::linalg::svd;
    use burn::prelude::*;

    // 最大的奇异值；svd 的奇异值按降序排
    pub fn run(x: Tensor<3>) -> Tensor<1> {
        let (_u, sv, _vt) = svd::<3, 2>(x, 30);
        sv.slice(s![.., 0]).squeeze_dim::<1>(1)
    }
}

mod matrix_norm_nuc {
    use burn::linalg::svd;
    use burn::prelude::*;

    // 奇异值之和
    pub fn run(x: Tensor<3>) -> Tensor<1> {
        let (_u, sv, _vt) = svd::<3, 2>(x, 30);
        sv.sum_dim(1).squeeze_dim::<1>(1)
    }
}
