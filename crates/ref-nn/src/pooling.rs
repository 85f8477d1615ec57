//! 池化: the rows of experiments/reference/ref-3-nn/pooling.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn pool_row(f: fn(Tensor<4>) -> Tensor<4>, shape: [usize; 4], ad: &Device) -> Value {
    let x = input(data(shape, 0.0, &Device::flex()), ad);
    let y = f(x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "dx": grad(&x, &g), "shape": y.dims()})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    row("maxpool2d", pool_row(maxpool2d::run, [1, 2, 4, 6], &ad));
    row("maxpool2d_padding", pool_row(maxpool2d_padding::run, [1, 1, 5, 6], &ad));
    row("maxpool2d_ceil_mode", pool_row(maxpool2d_ceil_mode::run, [1, 1, 5, 5], &ad));
    row("avgpool2d_padding", pool_row(avgpool2d_padding::run, [1, 1, 5, 6], &ad));
    row("avgpool2d_exclude_pad", pool_row(avgpool2d_exclude_pad::run, [1, 1, 5, 6], &ad));
    row("avgpool2d_ceil_mode", pool_row(avgpool2d_ceil_mode::run, [1, 1, 5, 5], &ad));
    row("avgpool2d_ceil_pad", pool_row(avgpool2d_ceil_pad::run, [1, 1, 6, 6], &ad));
    row("adaptive_avg_pool2d", pool_row(adaptive_avg_pool2d::run, [1, 2, 5, 7], &ad));
}

mod maxpool2d {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([2, 2]).init().forward(x)
    }
}

mod maxpool2d_padding {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init()
            .forward(x)
    }
}

mod maxpool2d_ceil_mode {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([2, 2])
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod avgpool2d_padding {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // count_include_pad 默认 true，和 PyTorch 相同
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init()
            .forward(x)
    }
}

mod avgpool2d_exclude_pad {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .with_count_include_pad(false)
            .init()
            .forward(x)
    }
}

mod avgpool2d_ceil_mode {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([2, 2])
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod avgpool2d_ceil_pad {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod adaptive_avg_pool2d {
    use burn::nn::pool::AdaptiveAvgPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AdaptiveAvgPool2dConfig::new([3, 3]).init().forward(x)
    }
}
