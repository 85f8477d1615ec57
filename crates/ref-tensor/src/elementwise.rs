//! 逐元素运算: the rows of experiments/reference/ref-1-tensor/elementwise.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("add_broadcast", out(add_broadcast::run(data([3, 1], &d), data([1, 4], &d))));
    row("add_rank", out(add_rank::run(data([3, 4], &d), data([4], &d))));
    row("arith_scalar", out(arith_scalar::run(data([3, 4], &d))));
    row("pow_int", out(pow_int::run(data([3, 4], &d))));
    row("pow_float", out(pow_float::run(data([3, 4], &d))));
    row("pow_neg_base", out(pow_neg_base::run(floats(&[-0.5, -2.0, 3.0], &d))));
    row("sqrt", out(sqrt::run(data([3, 4], &d))));
    row("exp", out(exp::run(data([3, 4], &d))));
    row("log", out(log::run(data([3, 4], &d))));
    row("log1p", out(log1p::run(data([3, 4], &d))));
    row("abs", out(abs::run(data([3, 4], &d))));
    row("neg", out(neg::run(data([3, 4], &d))));
    row("sign", out(sign::run(floats(&[-0.5, 0.0, 2.0, -3.0], &d))));
    row("clamp", out(clamp::run(data([3, 4], &d))));
    row("floor", out(floor::run(floats(&HALVES, &d))));
    row("ceil", out(ceil::run(floats(&HALVES, &d))));
    row("round", out(round::run(floats(&HALVES, &d))));
    row("trunc", out(trunc::run(floats(&HALVES, &d))));
    row("remainder", out(remainder::run(data([3, 4], &d))));
    row("remainder_neg", out(remainder_neg::run(data([3, 4], &d))));
    row("fmod", out(fmod::run(data([3, 4], &d))));
    row("reciprocal", out(reciprocal::run(data([3, 4], &d))));
    let (sin, cos) = sin_cos::run(data([3, 4], &d));
    row("sin_cos", json!({"sin": fv(&sin), "cos": fv(&cos)}));
    row("tanh", out(tanh::run(data([3, 4], &d))));
    row("erf", out(erf::run(data([3, 4], &d))));
}

mod add_broadcast {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a + b
    }
}

mod add_rank {
    use burn::prelude::*;

    // 秩不同的张量不能直接相加：先把 b 升成 2 维（在前面补长度为 1 的维）
    pub fn run(a: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        a + b.unsqueeze::<2>()
    }
}

mod arith_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        (x - 1.0) * 3.0 / 2.0
    }
}

mod pow_int {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.powi_scalar(3)
    }
}

mod pow_float {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().powf_scalar(0.5)
    }
}

mod pow_neg_base {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.powf_scalar(3.0)
    }
}

mod sqrt {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().sqrt()
    }
}

mod exp {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.exp()
    }
}

mod log {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().log()
    }
}

mod log1p {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.log1p()
    }
}

mod abs {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs()
    }
}

mod neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        -x
    }
}

mod sign {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.sign()
    }
}

mod clamp {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clamp(-0.2, 0.3)
    }
}

mod floor {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.floor()
    }
}

mod ceil {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.ceil()
    }
}

mod round {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.round()
    }
}

mod trunc {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.trunc()
    }
}

mod remainder {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.remainder_scalar(0.3)
    }
}

mod remainder_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.remainder_scalar(-0.3)
    }
}

mod fmod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.fmod_scalar(0.3)
    }
}

mod reciprocal {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.recip()
    }
}

mod sin_cos {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        (x.clone().sin(), x.cos())
    }
}

mod tanh {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.tanh()
    }
}

mod erf {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.erf()
    }
}
