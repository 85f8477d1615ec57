//! 逐元素与归约: the rows of experiments/reference/ref-7-ops/elementwise_reduce.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const SPECIAL: [f32; 6] = [0.5, f32::NAN, f32::INFINITY, -1.5, f32::NEG_INFINITY, 0.0];

const BOUNDS: [f32; 3] = [-0.25, 0.0, 0.25];

const POINTS: [f32; 7] = [-0.5, -0.25, -0.1, 0.0, 0.1, 0.25, 0.4];

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let d = Device::flex();

    let (a, b) = (data([3, 4], &ad).require_grad(), coef([3, 4], &ad).require_grad());
    let y = lerp::run(a.clone(), b.clone(), 0.3);
    let g = gsum(&y);
    row("lerp", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));
    let (var, mean) = var_mean::run(data([3, 4], &d));
    row("var_mean", json!({"var": fv(&var), "mean": fv(&mean), "shape": var.dims().to_vec()}));
    row("nan_to_num", out(nan_to_num::run(floats(&SPECIAL, &d))));
    row("nan_to_num_args", out(nan_to_num_args::run(floats(&SPECIAL, &d))));
    let a = floats(&[1.0, 2.0, f32::INFINITY, f32::NAN, 1e-9, 100.0], &d);
    let b = floats(&[1.0 + 1e-6, 2.001, f32::INFINITY, f32::NAN, 0.0, 100.0005], &d);
    row("isclose", outb(isclose::run(a, b)));
    let (def, loose) = allclose::run(data([2, 3], &d), data([2, 3], &d) + 5e-4);
    row("allclose", json!({"default": def, "atol_1e_3": loose}));
    let (bounds, points) = (|| floats(&BOUNDS, &d), || floats(&POINTS, &d));
    row("bucketize", outi(bucketize::run(points(), bounds())));
    row("searchsorted", outi(searchsorted::run(bounds(), points())));
    row("searchsorted_right", outi(searchsorted_right::run(bounds(), points())));
    row("clamp_min", out(clamp_min::run(data([3, 4], &d))));
    row("where_scalar", out(where_scalar::run(data([3, 4], &d))));
    row("cummax", out(cummax::run(data([3, 4], &d))));
    row("argsort", outi(argsort::run(data([3, 4], &d))));
    let (and, or, not) = logical_ops::run(data([3, 4], &d).greater_elem(0.0), coef([3, 4], &d).greater_elem(0.0));
    row("logical_ops", json!({"and": bv(&and), "or": bv(&or), "not": bv(&not), "shape": and.dims().to_vec()}));
    row("square", out(square::run(data([3, 4], &d))));
    row("rsqrt", out(rsqrt::run(data([3, 4], &d).abs() + 0.1)));
}

mod lerp {
    use burn::prelude::*;

    // start + weight · (end - start)
    pub fn run(start: Tensor<2>, end: Tensor<2>, weight: f32) -> Tensor<2> {
        start.clone() + (end - start) * weight
    }
}

mod var_mean {
    use burn::prelude::*;

    // 返回 (方差, 均值)，方差无偏，保留被归约的维
    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        x.var_mean(1)
    }
}

mod nan_to_num {
    use burn::prelude::*;

    // NaN → 0，+inf → f32 最大值，-inf → f32 最小值
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.clone().mask_fill(x.is_nan(), 0.0);
        let pos = x.clone().equal_elem(f32::INFINITY);
        let neg = x.clone().equal_elem(f32::NEG_INFINITY);
        x.mask_fill(pos, f32::MAX).mask_fill(neg, f32::MIN)
    }
}

mod nan_to_num_args {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.clone().mask_fill(x.is_nan(), 0.0);
        let pos = x.clone().equal_elem(f32::INFINITY);
        let neg = x.clone().equal_elem(f32::NEG_INFINITY);
        x.mask_fill(pos, 1.0).mask_fill(neg, -1.0)
    }
}

mod isclose {
    use burn::prelude::*;

    // None, None：默认 rtol = 1e-5、atol = 1e-8，和 PyTorch 一样；NaN 不等于 NaN
    pub fn run(a: Tensor<1>, b: Tensor<1>) -> Tensor<1, Bool> {
        a.is_close(b, None, None)
    }
}

mod allclose {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> (bool, bool) {
        (a.clone().all_close(b.clone(), None, None), a.all_close(b, None, Some(1e-3)))
    }
}

mod bucketize {
    use burn::prelude::*;

    // right=False：下标 = 严格小于 x 的边界个数（boundaries 已排好序）
    pub fn run(x: Tensor<1>, boundaries: Tensor<1>) -> Tensor<1, Int> {
        let (n, m) = (x.dims()[0], boundaries.dims()[0]);
        let x = x.unsqueeze_dim::<2>(1).expand([n, m]);
        let b = boundaries.unsqueeze_dim::<2>(0).expand([n, m]);
        x.greater(b).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod searchsorted {
    use burn::prelude::*;

    // side='left'：下标 = sorted 里严格小于 v 的个数
    pub fn run(sorted: Tensor<1>, values: Tensor<1>) -> Tensor<1, Int> {
        let (m, n) = (sorted.dims()[0], values.dims()[0]);
        let v = values.unsqueeze_dim::<2>(1).expand([n, m]);
        let s = sorted.unsqueeze_dim::<2>(0).expand([n, m]);
        s.lower(v).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod searchsorted_right {
    use burn::prelude::*;

    // right=True：下标 = sorted 里小于等于 v 的个数
    pub fn run(sorted: Tensor<1>, values: Tensor<1>) -> Tensor<1, Int> {
        let (m, n) = (sorted.dims()[0], values.dims()[0]);
        let v = values.unsqueeze_dim::<2>(1).expand([n, m]);
        let s = sorted.unsqueeze_dim::<2>(0).expand([n, m]);
        s.lower_equal(v).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod clamp_min {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clamp_min(0.1)
    }
}

mod where_scalar {
    use burn::prelude::*;

    // torch.where(cond, x, 标量)：条件不成立处填标量
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let cond = x.clone().greater_elem(0.0);
        x.mask_fill(cond.bool_not(), 0.0)
    }
}

mod cummax {
    use burn::prelude::*;

    // 只有值，没有 PyTorch 同时返回的下标
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cummax(1)
    }
}

mod argsort {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2, Int> {
        x.argsort_descending(1)
    }
}

mod logical_ops {
    use burn::prelude::*;

    // (and, or, not)：& | ! 就是 bool_and、bool_or、bool_not（^ 是 bool_xor）
    pub fn run(a: Tensor<2, Bool>, b: Tensor<2, Bool>) -> (Tensor<2, Bool>, Tensor<2, Bool>, Tensor<2, Bool>) {
        (a.clone() & b.clone(), a.clone() | b, !a)
    }
}

mod square {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.square()
    }
}

mod rsqrt {
    use burn::prelude::*;

    // 没有 rsqrt：1 / sqrt(x)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sqrt().recip()
    }
}
