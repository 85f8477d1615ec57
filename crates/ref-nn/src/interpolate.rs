//! 插值: the rows of experiments/reference/ref-3-nn/interpolate.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// Flex does not implement every interpolation mode: a panic there is the row's result.
fn interp_row(f: impl Fn(Tensor<4>) -> Tensor<4> + std::panic::UnwindSafe, x: Tensor<4>) -> Value {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let y = std::panic::catch_unwind(move || f(x));
    std::panic::set_hook(hook);
    match y {
        Ok(y) => json!({"runs": true, "y": flat(y.clone()), "shape": y.dims()}),
        Err(_) => json!({"runs": false, "y": [], "shape": []}),
    }
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let x34 = || data([1, 1, 3, 4], 0.0, &d);
    let x57 = || data([1, 1, 5, 7], 0.0, &d);
    row("interpolate_nearest_up", interp_row(interpolate_nearest_up::run, x34()));
    row("interpolate_nearest_down", interp_row(interpolate_nearest_down::run, x57()));
    row("interpolate_nearest_exact", interp_row(interpolate_nearest_exact::run, x57()));
    row("interpolate_nearest_exact_select", y_shape(interpolate_nearest_exact_select::run(x57(), [3, 4])));
    row("interpolate_bilinear_align_false", interp_row(interpolate_bilinear_align_false::run, x34()));
    row("interpolate_bilinear_align_true", interp_row(interpolate_bilinear_align_true::run, x34()));
    row("interpolate_bilinear_default", interp_row(interpolate_bilinear_default::run, x34()));
    row("interpolate_bicubic", interp_row(interpolate_bicubic::run, x34()));
}

mod interpolate_nearest_up {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([6, 8]))
            .with_mode(InterpolateMode::Nearest)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_down {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([3, 4]))
            .with_mode(InterpolateMode::Nearest)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_exact {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // Flex 后端没有实现 NearestExact：forward 会 panic
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([3, 4]))
            .with_mode(InterpolateMode::NearestExact)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_exact_select {
    use burn::prelude::*;

    // PyTorch 的 nearest-exact：输出第 i 个取输入第 min(floor((i + 0.5) · in / out), in − 1) 个
    fn source(n_in: usize, n_out: usize, d: &Device) -> Tensor<1, Int> {
        let scale = n_in as f64 / n_out as f64;
        let idx: Vec<i64> = (0..n_out)
            .map(|i| (((i as f64 + 0.5) * scale).floor() as usize).min(n_in - 1) as i64)
            .collect();
        Tensor::from_data(TensorData::new(idx, [n_out]), d)
    }

    // 手写：按行、按列各取一次下标
    pub fn run(x: Tensor<4>, size: [usize; 2]) -> Tensor<4> {
        let [_, _, h, w] = x.dims();
        let d = x.device();
        x.select(2, source(h, size[0], &d))
            .select(3, source(w, size[1], &d))
    }
}

mod interpolate_bilinear_align_false {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // align_corners 默认 true，PyTorch 默认按 False：写出来
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(false)
            .init()
            .forward(x)
    }
}

mod interpolate_bilinear_align_true {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(true)
            .init()
            .forward(x)
    }
}

mod interpolate_bilinear_default {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // 没写 align_corners：burn 默认 true（角点对齐）
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .init()
            .forward(x)
    }
}

mod interpolate_bicubic {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Cubic)
            .with_align_corners(false)
            .init()
            .forward(x)
    }
}
