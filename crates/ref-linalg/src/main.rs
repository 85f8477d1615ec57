//! The torch → burn map, linear-algebra rows: one module per row of ref-6-linalg.yaml's table,
//! each calling burn::linalg (burn's `linalg` feature). main() builds the inputs, calls the
//! row's `run` and prints {"rows": {<row id>: {...}}}. The inputs are the same numbers as the
//! PyTorch script's: data: X[k] = 0.5·sin(k + 1); rough: X[k] = 0.5·sin((k + 1)²) for the
//! matrices that must be invertible (consecutive sines make any matrix of three or more
//! columns singular: sin(k + 2) = 2·cos(1)·sin(k + 1) − sin(k)). Both in f64, rounded to f32
//! once. NaN and ±inf travel as "nan", "inf", "-inf" (serde_json would write null).
use burn::prelude::*;
use serde_json::{json, Map, Value};

// ---- 向量范数 ----

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

// ---- 矩阵范数：burn 没有 matrix_norm，用 burn::linalg 的向量范数和 svd 拼 ----

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

// ---- 对角与迹 ----

mod diag {
    use burn::linalg::diag;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<1> {
        diag::<2, 1, Float>(x)
    }
}

mod diagonal_batch {
    use burn::linalg::diag;
    use burn::prelude::*;

    // 取最后两维的对角线，前面的维当作批
    pub fn run(x: Tensor<3>) -> Tensor<2> {
        diag::<3, 2, Float>(x)
    }
}

mod trace {
    use burn::linalg::trace;
    use burn::prelude::*;

    // 结果是只有一个元素的 Tensor<1>
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        trace::<2, 1>(x)
    }
}

mod trace_item {
    use burn::linalg::trace;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        trace::<2, 1>(x).into_scalar::<f32>()
    }
}

// ---- 行列式与分解 ----

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

// ---- 外积与矩阵乘向量 ----

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

// ---- helpers: inputs and JSON ----

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn rough<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * (((k + 1) * (k + 1)) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn num(x: f64) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(x)
    }
}

fn fv<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    Value::Array(v.into_iter().map(num).collect())
}

fn out<const D: usize>(t: Tensor<D>) -> Value {
    json!({"v": fv(&t), "shape": t.dims().to_vec()})
}

fn scalar(x: f32) -> Value {
    json!({"v": num(f64::from(x))})
}

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

fn main() {
    let d = Device::flex();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 向量范数 ----
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

    // ---- 矩阵范数 ----
    row("matrix_norm_fro", out(matrix_norm_fro::run(rough([2, 3, 4], &d))));
    row("matrix_norm_1", out(matrix_norm_1::run(rough([2, 3, 4], &d))));
    row("matrix_norm_inf", out(matrix_norm_inf::run(rough([2, 3, 4], &d))));
    row("matrix_norm_2", out(matrix_norm_2::run(rough([2, 3, 4], &d))));
    row("matrix_norm_nuc", out(matrix_norm_nuc::run(rough([2, 3, 4], &d))));

    // ---- 对角与迹 ----
    row("diag", out(diag::run(data([3, 4], &d))));
    row("diagonal_batch", out(diagonal_batch::run(data([2, 3, 3], &d))));
    row("trace", out(trace::run(data([3, 4], &d))));
    row("trace_item", scalar(trace_item::run(data([3, 4], &d))));

    // ---- 行列式与分解 ----
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

    // ---- 外积与矩阵乘向量 ----
    row("outer", out(outer::run(data([3], &d), data([4], &d))));
    row("matvec", out(matvec::run(data([3, 4], &d), data([4], &d))));

    println!("{}", json!({"rows": Value::Object(rows)}));
}
