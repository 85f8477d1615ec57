//! 比较: the rows of experiments/reference/ref-1-tensor/comparison.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const WITH_NAN: [f32; 4] = [0.3, f32::NAN, 0.9, -0.2];

// Two [2, 4] tensors equal except at two places, for the comparison rows.
fn pair(d: &Device) -> (Tensor<2>, Tensor<2>) {
    let a = data([2, 4], d);
    let b = a.clone().slice_fill(s![0, 1], 0.0).slice_fill(s![1, 2], 1.0);
    (a, b)
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let (a, b) = pair(&d);
    row("eq", outb(eq::run(a.clone(), b.clone())));
    row("ne", outb(ne::run(a.clone(), b.clone())));
    row("gt", outb(gt::run(a.clone(), b.clone())));
    row("ge", outb(ge::run(a.clone(), b.clone())));
    row("lt", outb(lt::run(a.clone(), b.clone())));
    row("le", outb(le::run(a, b)));
    row("gt_scalar", outb(gt_scalar::run(data([3, 4], &d))));
    let special = floats(&[1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &d);
    row("isnan", outb(isnan::run(special.clone())));
    row("isinf", outb(isinf::run(special)));
    let (any, all) = any_all::run(data([3, 4], &d).greater_elem(0.0));
    row("any_all", json!({"any": any, "all": all}));
    row("any_dim", outb(any_dim::run(data([3, 4], &d).greater_elem(0.4))));
    row("maximum", out(maximum::run(data([3, 4], &d), data([3, 4], &d).flip([0]))));
    row("minimum", out(minimum::run(data([3, 4], &d), data([3, 4], &d).flip([0]))));
    row("maximum_nan", out(maximum_nan::run(floats(&WITH_NAN, &d), Tensor::<1>::zeros([4], &d))));
    row("max_nan", json!({"max": num(f64::from(max_nan::run(floats(&WITH_NAN, &d))))}));
    row("min_nan", json!({"min": num(f64::from(min_nan::run(floats(&WITH_NAN, &d))))}));
    row("argmax_nan", json!({"argmax": argmax_nan::run(floats(&WITH_NAN, &d))}));
}

mod eq {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.equal(b)
    }
}

mod ne {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.not_equal(b)
    }
}

mod gt {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.greater(b)
    }
}

mod ge {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.greater_equal(b)
    }
}

mod lt {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.lower(b)
    }
}

mod le {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.lower_equal(b)
    }
}

mod gt_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2, Bool> {
        x.greater_elem(0.0)
    }
}

mod isnan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.is_nan()
    }
}

mod isinf {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.is_inf()
    }
}

mod any_all {
    use burn::prelude::*;

    // any()、all() 给只有一个元素的 Tensor<1, Bool>；into_scalar 取出 bool
    pub fn run(m: Tensor<2, Bool>) -> (bool, bool) {
        (m.clone().any().into_scalar::<bool>(), m.all().into_scalar::<bool>())
    }
}

mod any_dim {
    use burn::prelude::*;

    pub fn run(m: Tensor<2, Bool>) -> Tensor<2, Bool> {
        m.any_dim(1)
    }
}

mod maximum {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.max_pair(b)
    }
}

mod minimum {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.min_pair(b)
    }
}

mod maximum_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>, zeros: Tensor<1>) -> Tensor<1> {
        x.max_pair(zeros)
    }
}

mod max_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> f32 {
        x.max().into_scalar::<f32>()
    }
}

mod min_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> f32 {
        x.min().into_scalar::<f32>()
    }
}

mod argmax_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmax(0).into_scalar::<i64>()
    }
}
