//! 向量范数: the rows of experiments/reference/ref-6-linalg/vector_norms.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("norm_l2", scalar(norm_l2::run(data([3, 4], &d))));
    row("norm_l1", scalar(norm_l1::run(data([3, 4], &d))));
    row("vector_norm", out(vector_norm::run(data([3, 4], &d))));
    row("vector_norm_nokeepdim", out(vector_norm_nokeepdim::run(data([3, 4], &d))));
    row("vector_norm_squeeze", out(vector_norm_squeeze::run(data([3, 4], &d))));
    row("vector_norm_inf", out(vector_norm_inf::run(data([3, 4], &d))));
    row("vector_norm_neg_inf", out(vector_norm_neg_inf::run(data([3, 4], &d))));
    // Rows with zeros, so that the count differs from the row length.
    let z = data([3, 4], &d).mask_fill(data([3, 4], &d).abs().lower_elem(0.2), 0.0);
    row("vector_norm_l0", out(vector_norm_l0::run(z)));
    row("vector_norm_p3", out(vector_norm_p3::run(data([3, 4], &d))));
    row("vector_norm_p4", out(vector_norm_p4::run(data([3, 4], &d))));
    row("vector_norm_dims", out(vector_norm_dims::run(data([2, 3, 4], &d))));
    row("lp_norm", out(lp_norm::run(data([3, 4], &d))));
    row("normalize", out(normalize::run(data([3, 4], &d))));
    row("cosine_similarity", out(cosine_similarity::run(data([3, 4], &d), rough([3, 4], &d))));
    row("cosine_similarity_squeeze",
        out(cosine_similarity_squeeze::run(data([3, 4], &d), rough([3, 4], &d))));
}

mod norm_l2 {
    use burn::linalg::{vector_norm_dims, Norm};
    use burn::prelude::*;

    // torch.linalg.norm(x) 不给 dim：所有元素当作一个向量。burn 要列出归约的维，结果保留它们（[1, 1]）
    pub fn run(x: Tensor<2>) -> f32 {
        vector_norm_dims(x, Norm::L2, &[0, 1]).into_scalar::<f32>()
    }
}

mod norm_l1 {
    use burn::linalg::{vector_norm_dims, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        vector_norm_dims(x, Norm::L1, &[0, 1]).into_scalar::<f32>()
    }
}

mod vector_norm {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::L2, 1)
    }
}

mod vector_norm_nokeepdim {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    // burn 保留被归约的维：[3, 1]
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::L2, 1)
    }
}

mod vector_norm_squeeze {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    // keepdim=False：归约后去掉那一维
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        vector_norm(x, Norm::L2, 1).squeeze_dim::<1>(1)
    }
}

mod vector_norm_inf {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::LInf, 1)
    }
}

mod vector_norm_neg_inf {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::LNegInf, 1)
    }
}

mod vector_norm_l0 {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    // 每行非零元素的个数（浮点）
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::L0, 1)
    }
}

mod vector_norm_p3 {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::Lp(3.0), 1)
    }
}

mod vector_norm_p4 {
    use burn::linalg::{vector_norm, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_norm(x, Norm::Lp(4.0), 1)
    }
}

mod vector_norm_dims {
    use burn::linalg::{vector_norm_dims, Norm};
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        vector_norm_dims(x, Norm::L2, &[1, 2])
    }
}

mod lp_norm {
    use burn::linalg::lp_norm;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        lp_norm(x, 3.0, 1)
    }
}

mod normalize {
    use burn::linalg::{vector_normalize, Norm};
    use burn::prelude::*;

    // x / max(‖x‖₂, eps)，eps 取 F.normalize 的默认值 1e-12
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        vector_normalize(x, Norm::L2, 1, 1e-12)
    }
}

mod cosine_similarity {
    use burn::linalg::cosine_similarity;
    use burn::prelude::*;

    // burn 保留被归约的维：[3, 1]
    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        cosine_similarity(a, b, 1, None)
    }
}

mod cosine_similarity_squeeze {
    use burn::linalg::cosine_similarity;
    use burn::prelude::*;

    // eps 取 F.cosine_similarity 的默认值 1e-8，再去掉被归约的维
    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<1> {
        cosine_similarity(a, b, 1, Some(1e-8)).squeeze_dim::<1>(1)
    }
}
