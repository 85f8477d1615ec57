//! 行列式与分解: the rows of experiments/reference/ref-6-linalg/det_decomp.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

// Several outputs (a decomposition): each one's values under its name, and all the shapes.
fn factors<const D: usize>(names: &[&str], ts: &[Tensor<D>]) -> Value {
    let mut m = Map::new();
    for (name, t) in names.iter().zip(ts) {
        m.insert(name.to_string(), fv(t));
    }
    m.insert("shape".into(), json!(ts.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()));
    Value::Object(m)
}

fn svd_out((u, s, vt): (Tensor<2>, Tensor<1>, Tensor<2>)) -> Value {
    json!({"u": fv(&u), "s": fv(&s), "vt": fv(&vt),
           "shape": [u.dims().to_vec(), s.dims().to_vec(), vt.dims().to_vec()]})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("det", out(det::run(rough([2, 3, 3], &d))));
    row("det_4x4", out(det_4x4::run(rough([2, 4, 4], &d))));
    // A single matrix: burn's det checks for rank 3 and panics; catch it to say so.
    let hook = ::std::panic::take_hook();
    ::std::panic::set_hook(Box::new(|_| {}));
    let got = ::std::panic::catch_unwind(|| det_2d::run(rough([3, 3], &Device::flex())).dims().len());
    ::std::panic::set_hook(hook);
    row("det_2d", json!({"panics": got.is_err()}));
    row("det_2d_fix", scalar(det_2d_fix::run(rough([3, 3], &d))));
    let (p, l, u) = lu::run(rough([4, 4], &d));
    row("lu", factors(&["p", "l", "u"], &[p, l, u]));
    let (p, l, u) = lu_tall::run(rough([4, 3], &d));
    row("lu_tall", factors(&["p", "l", "u"], &[p, l, u]));
    let (q, r) = qr::run(rough([4, 3], &d));
    row("qr", factors(&["q", "r"], &[q, r]));
    let (q, r) = qr_complete::run(rough([4, 3], &d));
    row("qr_complete", factors(&["q", "r"], &[q, r]));
    row("svd", svd_out(svd::run(rough([4, 3], &d))));
    row("svd_full", svd_out(svd_full::run(rough([4, 3], &d))));
    row("svdvals", out(svdvals::run(rough([4, 3], &d))));
}

mod det {
    use burn::linalg::det;
    use burn::prelude::*;

    // 泛型参数：输入的秩 D、D - 1、D - 2
    pub fn run(a: Tensor<3>) -> Tensor<1> {
        det::<3, 2, 1>(a)
    }
}

mod det_4x4 {
    use burn::linalg::det;
    use burn::prelude::*;

    // 4×4 起走 LU 分解
    pub fn run(a: Tensor<3>) -> Tensor<1> {
        det::<3, 2, 1>(a)
    }
}

mod det_2d {
    use burn::linalg::det;
    use burn::prelude::*;

    // 单个矩阵：burn 0.22.1 的 det 要求输入至少 3 维，这里 panic
    pub fn run(a: Tensor<2>) -> Tensor<0> {
        det::<2, 1, 0>(a)
    }
}

mod det_2d_fix {
    use burn::linalg::det;
    use burn::prelude::*;

    // 加一个长度为 1 的批维，算完取出那一个数
    pub fn run(a: Tensor<2>) -> f32 {
        det::<3, 2, 1>(a.unsqueeze::<3>()).into_scalar::<f32>()
    }
}

mod lu {
    use burn::linalg::lu;
    use burn::prelude::*;

    // A = P L U（部分选主元）
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
        lu::<2, 1>(a)
    }
}

mod lu_tall {
    use burn::linalg::lu;
    use burn::prelude::*;

    // [4, 3]：P [4, 4]，L [4, 3]，U [3, 3]
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
        lu::<2, 1>(a)
    }
}

mod qr {
    use burn::linalg::qr;
    use burn::prelude::*;

    // reduced = true：Q [4, 3]，R [3, 3]
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        qr(a, true)
    }
}

mod qr_complete {
    use burn::linalg::qr;
    use burn::prelude::*;

    // reduced = false：Q [4, 4]，R [4, 3]
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        qr(a, false)
    }
}

mod svd {
    use burn::linalg::svd;
    use burn::prelude::*;

    // 30：每个奇异值最多做几轮 QR 迭代（不收敛就 panic）
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<1>, Tensor<2>) {
        svd::<2, 1>(a, 30)
    }
}

mod svd_full {
    use burn::linalg::svd;
    use burn::prelude::*;

    // burn 只有精简的 SVD：U [4, 3]，不是 [4, 4]
    pub fn run(a: Tensor<2>) -> (Tensor<2>, Tensor<1>, Tensor<2>) {
        svd::<2, 1>(a, 30)
    }
}

mod svdvals {
    use burn::linalg::svd;
    use burn::prelude::*;

    pub fn run(a: Tensor<2>) -> Tensor<1> {
        let (_u, sv, _vt) = svd::<2, 1>(a, 30);
        sv
    }
}
