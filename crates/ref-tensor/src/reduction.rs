//! 归约: the rows of experiments/reference/ref-1-tensor/reduction.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    // Shapes as text ("[3, 1]"), so that the table shows them as they print.
    let t = sum_all::run(data([3, 4], &d));
    row("sum_all", json!({"v": fv(&t), "shape": format!("{:?}", t.dims())}));
    row("mean_all", scalar(mean_all::run(data([3, 4], &d))));
    row("sum_dim", out(sum_dim::run(data([3, 4], &d))));
    row("sum_dim_shape", json!({"shape": format!("{:?}", sum_dim_shape::run(data([3, 4], &d)))}));
    row("argmax_dim_shape", json!({"shape": format!("{:?}", argmax_dim_shape::run(data([3, 4], &d)))}));
    row("argmax_dim", outi(argmax_dim::run(data([3, 4], &d))));
    row("sum_keepdim", out(sum_keepdim::run(data([3, 4], &d))));
    row("sum_neg_dim", out(sum_neg_dim::run(data([3, 4], &d))));
    row("mean_dim", out(mean_dim::run(data([3, 4], &d))));
    let (values, indices) = max_dim::run(data([3, 4], &d));
    row("max_dim", json!({"values": fv(&values), "indices": iv(&indices),
                          "shape": values.dims().to_vec()}));
    row("argmax_ties", json!({"argmax": argmax_ties::run(floats(&[1.0, 3.0, 3.0, 2.0], &d))}));
    row("argmin_ties", json!({"argmin": argmin_ties::run(floats(&[2.0, 1.0, 1.0, 3.0], &d))}));
    row("min_dim", out(min_dim::run(data([3, 4], &d))));
    row("var_default", out(var_default::run(data([3, 4], &d))));
    row("var_unbiased0", out(var_unbiased0::run(data([3, 4], &d))));
    row("std", out(std::run(data([3, 4], &d))));
    row("prod", scalar(prod::run(data([3, 4], &d))));
    row("prod_dim", out(prod_dim::run(data([3, 4], &d))));
    row("cumsum", out(cumsum::run(data([3, 4], &d))));
    row("cumprod", out(cumprod::run(data([3, 4], &d))));
    row("logsumexp", out(logsumexp::run(data([3, 4], &d))));
    row("softmax", out(softmax::run(data([3, 4], &d))));
    row("softmax_neg_dim", out(softmax_neg_dim::run(data([2, 3, 4], &d))));
    row("log_softmax", out(log_softmax::run(data([3, 4], &d))));
    let (values, indices) = sort::run(data([3, 4], &d));
    row("sort", json!({"values": fv(&values), "indices": iv(&indices)}));
    let (values, indices) = topk::run(data([3, 4], &d));
    row("topk", json!({"values": fv(&values), "indices": iv(&indices)}));
}

mod sum_all {
    use burn::prelude::*;

    // 只有一个元素的 Tensor<1>
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.sum()
    }
}

mod mean_all {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.mean().into_scalar::<f32>()
    }
}

mod sum_dim {
    use burn::prelude::*;

    // sum_dim 保留被归约的维（[3, 1]），squeeze_dim 去掉它
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod sum_dim_shape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> [usize; 2] {
        x.sum_dim(1).dims()
    }
}

mod argmax_dim_shape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> [usize; 2] {
        x.argmax(1).dims()
    }
}

mod argmax_dim {
    use burn::prelude::*;

    // argmax 保留被归约的维（[3, 1]），squeeze_dim 去掉它
    pub fn run(x: Tensor<2>) -> Tensor<1, Int> {
        x.argmax(1).squeeze_dim::<1>(1)
    }
}

mod sum_keepdim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sum_dim(1)
    }
}

mod sum_neg_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sum_dim(-1)
    }
}

mod mean_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.mean_dim(0)
    }
}

mod max_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.max_dim_with_indices(1)
    }
}

mod argmax_ties {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmax(0).into_scalar::<i64>()
    }
}

mod argmin_ties {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmin(0).into_scalar::<i64>()
    }
}

mod min_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.min_dim(0)
    }
}

mod var_default {
    use burn::prelude::*;

    // var 是无偏方差（除以 n - 1），保留被归约的维
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.var(1).squeeze_dim::<1>(1)
    }
}

mod var_unbiased0 {
    use burn::prelude::*;

    // 除以 n
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.var_bias(1)
    }
}

mod std {
    use burn::prelude::*;

    // 没有 std：无偏方差开方
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.var(1).sqrt()
    }
}

mod prod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.prod().into_scalar::<f32>()
    }
}

mod prod_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.prod_dim(1)
    }
}

mod cumsum {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cumsum(1)
    }
}

mod cumprod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cumprod(1)
    }
}

mod logsumexp {
    use burn::prelude::*;

    // 没有 logsumexp：减去每行的最大值再 exp、求和、log，不会溢出
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let m = x.clone().max_dim(1);
        m.clone() + (x - m).exp().sum_dim(1).log()
    }
}

mod softmax {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        softmax(x, 1)
    }
}

mod softmax_neg_dim {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        softmax(x, -1)
    }
}

mod log_softmax {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        log_softmax(x, 1)
    }
}

mod sort {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.sort_with_indices(1)
    }
}

mod topk {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.topk_with_indices(2, 1)
    }
}
