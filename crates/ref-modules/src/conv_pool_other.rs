//! 卷积、池化与其他层: the rows of experiments/reference/ref-8-modules/conv_pool_other.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// Forward and backward of a module without weights: y, shape, dx.
fn run_plain<const D: usize, const E: usize>(f: impl Fn(Tensor<D>) -> Tensor<E>, x: Tensor<D>, ad: &Device) -> Value {
    let x = input(x, ad);
    let y = f(x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "shape": y.dims().to_vec(), "dx": grad(&x, &g)})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let mut m = conv_transpose1d::build(&ad);
        m.weight = param(data([2, 3, 3], 10.0, &d), &ad);
        m.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 2, 5], 0.0, &d), &ad);
        let y = conv_transpose1d::forward(&m, x.clone());
        let g = backward(&y);
        row("conv_transpose1d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&m.weight.val(), &g), "db": grad(&m.bias.as_ref().unwrap().val(), &g)}));
    }
    let m = maxpool1d::build();
    row("maxpool1d", run_plain(|x| maxpool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = avgpool1d::build();
    row("avgpool1d", run_plain(|x| avgpool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = adaptive_avg_pool1d::build();
    row("adaptive_avg_pool1d", run_plain(|x| adaptive_avg_pool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = upsample_nearest::build();
    row("upsample_nearest", run_plain(|x| upsample_nearest::forward(&m, x), data([1, 2, 3, 4], 0.0, &d), &ad));
    let m = upsample_bilinear::build();
    row("upsample_bilinear", run_plain(|x| upsample_bilinear::forward(&m, x), data([1, 2, 3, 4], 0.0, &d), &ad));
    row("flatten", run_plain(flatten::forward, data([2, 3, 2, 2], 0.0, &d), &ad));
    row("identity", run_plain(identity::forward, data([2, 3], 0.0, &d), &ad));
    {
        let m = cosine_similarity::build();
        let (x1, x2) = (input(data([3, 4], 0.0, &d), &ad), input(data([3, 4], 10.0, &d), &ad));
        let y = cosine_similarity::forward(&m, x1.clone(), x2.clone());
        let g = backward(&y);
        row("cosine_similarity", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x1, &g),
            "grad_x2": grad(&x2, &g)}));
    }
}

mod conv_transpose1d {
    use burn::nn::conv::{ConvTranspose1d, ConvTranspose1dConfig};
    use burn::prelude::*;

    // weight 两边都是 [in, out / groups, k]
    pub fn build(d: &Device) -> ConvTranspose1d {
        ConvTranspose1dConfig::new([2, 3], 3)
            .with_stride(2)
            .with_padding(1)
            .with_padding_out(1)
            .init(d)
    }

    pub fn forward(m: &ConvTranspose1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod maxpool1d {
    use burn::nn::pool::{MaxPool1d, MaxPool1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    pub fn build() -> MaxPool1d {
        MaxPool1dConfig::new(3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init()
    }

    pub fn forward(m: &MaxPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod avgpool1d {
    use burn::nn::pool::{AvgPool1d, AvgPool1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    // count_include_pad 默认 true，和 PyTorch 一样
    pub fn build() -> AvgPool1d {
        AvgPool1dConfig::new(3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init()
    }

    pub fn forward(m: &AvgPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod adaptive_avg_pool1d {
    use burn::nn::pool::{AdaptiveAvgPool1d, AdaptiveAvgPool1dConfig};
    use burn::prelude::*;

    pub fn build() -> AdaptiveAvgPool1d {
        AdaptiveAvgPool1dConfig::new(3).init()
    }

    pub fn forward(m: &AdaptiveAvgPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod upsample_nearest {
    use burn::nn::interpolate::{Interpolate2d, Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn build() -> Interpolate2d {
        Interpolate2dConfig::new()
            .with_scale_factor(Some([2.0, 2.0]))
            .with_mode(InterpolateMode::Nearest)
            .init()
    }

    pub fn forward(m: &Interpolate2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod upsample_bilinear {
    use burn::nn::interpolate::{Interpolate2d, Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // align_corners 要写明：Interpolate2dConfig 默认是 true
    pub fn build() -> Interpolate2d {
        Interpolate2dConfig::new()
            .with_scale_factor(Some([2.0, 2.0]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(false)
            .init()
    }

    pub fn forward(m: &Interpolate2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod flatten {
    use burn::prelude::*;

    // 没有 Flatten 模块：nn.Flatten() 是 start_dim=1、end_dim=-1
    pub fn forward(x: Tensor<4>) -> Tensor<2> {
        x.flatten(1, 3)
    }
}

mod identity {
    use burn::nn::Identity;
    use burn::prelude::*;

    pub fn forward(x: Tensor<2>) -> Tensor<2> {
        Identity::new().forward(x)
    }
}

mod cosine_similarity {
    use burn::nn::{CosineSimilarity, CosineSimilarityConfig};
    use burn::prelude::*;

    pub fn build() -> CosineSimilarity {
        CosineSimilarityConfig::new().with_dim(1).init() // eps 默认 1e-8
    }

    pub fn forward(m: &CosineSimilarity, x1: Tensor<2>, x2: Tensor<2>) -> Tensor<1> {
        m.forward(x1, x2)
    }
}
