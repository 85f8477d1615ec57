//! 矩阵与距离: the rows of experiments/reference/ref-7-ops/matrix_distance.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let (a, b) = (data([2, 3, 4], &ad).require_grad(), coef([2, 4, 5], &ad).require_grad());
    let y = einsum_bmm::run(a.clone(), b.clone());
    let g = gsum(&y);
    row("einsum_bmm", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));
    let (q, k) = (data([1, 2, 3, 4], &ad).require_grad(), coef([1, 2, 5, 4], &ad).require_grad());
    let y = einsum_attn::run(q.clone(), k.clone());
    let g = gsum(&y);
    row("einsum_attn", with_y(&y, json!({"grad_q": grad(&q, &g), "grad_k": grad(&k, &g)})));
    row("baddbmm", out(baddbmm::run(data([2, 3, 5], &ad), coef([2, 3, 4], &ad), wave([2, 4, 5], &ad))));
    row("addmm", out(addmm::run(wave([5], &ad), data([3, 4], &ad), coef([4, 5], &ad))));
    let (a, b) = (data([2, 3, 4], &ad).require_grad(), coef([2, 5, 4], &ad).require_grad());
    let y = cdist::run(a.clone(), b.clone());
    let g = gsum(&y);
    row("cdist", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));
    // The same entries as the script's sparse_coo_tensor; (2, 2) twice.
    let a = sparse_mm::dense(&[0, 1, 1, 2, 2], &[1, 0, 2, 2, 2], &[0.5, -1.0, 2.0, 0.25, 0.5], 3, &ad);
    let x = data([3, 4], &ad).require_grad();
    let y = sparse_mm::run(a, x.clone());
    row("sparse_mm", with_y(&y, json!({"dx": grad(&x, &gsum(&y))})));
}

mod einsum_bmm {
    use burn::prelude::*;

    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        Tensor::<3>::einsum("bij,bjk->bik", [a.into(), b.into()])
    }
}

mod einsum_attn {
    use burn::prelude::*;

    pub fn run(q: Tensor<4>, k: Tensor<4>) -> Tensor<4> {
        Tensor::<4>::einsum("bhqd,bhkd->bhqk", [q.into(), k.into()])
    }
}

mod baddbmm {
    use burn::prelude::*;

    // beta · c + alpha · (a @ b)
    pub fn run(c: Tensor<3>, a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        c * 0.5 + a.matmul(b) * 2.0
    }
}

mod addmm {
    use burn::prelude::*;

    pub fn run(bias: Tensor<1>, x: Tensor<2>, w: Tensor<2>) -> Tensor<2> {
        x.matmul(w) + bias.unsqueeze::<2>()
    }
}

mod cdist {
    use burn::prelude::*;

    // a: [b, p, m]，b: [b, r, m] → 两两的欧氏距离 [b, p, r]
    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        let diff = a.unsqueeze_dim::<4>(2) - b.unsqueeze_dim::<4>(1);
        diff.powi_scalar(2).sum_dim(3).squeeze_dim::<3>(3).sqrt()
    }
}

mod sparse_mm {
    use burn::prelude::*;

    // 稀疏的 A（COO：行、列、值）填成稠密的 [n, n]，同一格的值相加
    pub fn dense(rows: &[usize], cols: &[usize], vals: &[f32], n: usize, device: &Device) -> Tensor<2> {
        let mut a = vec![0.0f32; n * n];
        for ((&r, &c), &v) in rows.iter().zip(cols).zip(vals) {
            a[r * n + c] += v;
        }
        Tensor::<1>::from_floats(a.as_slice(), device).reshape([n, n])
    }

    pub fn run(a: Tensor<2>, x: Tensor<2>) -> Tensor<2> {
        a.matmul(x)
    }
}
