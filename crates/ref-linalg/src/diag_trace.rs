//! 对角与迹: the rows of experiments/reference/ref-6-linalg/diag_trace.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("diag", out(diag::run(data([3, 4], &d))));
    row("diagonal_batch", out(diagonal_batch::run(data([2, 3, 3], &d))));
    row("trace", out(trace::run(data([3, 4], &d))));
    row("trace_item", scalar(trace_item::run(data([3, 4], &d))));
}

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
