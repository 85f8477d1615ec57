//! 线性与卷积: the rows of experiments/reference/ref-3-nn/linear_conv.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// A Conv2d with PyTorch's weight (phase 10) and bias (20): y, dx, dw, db.
fn conv2d_row(mut conv: Conv2d, forward: fn(&Conv2d, Tensor<4>) -> Tensor<4>, xshape: [usize; 4], ad: &Device) -> Value {
    let p = Device::flex();
    conv.weight = param(data(conv.weight.dims(), 10.0, &p), ad);
    conv.bias = Some(param(data([conv.weight.dims()[0]], 20.0, &p), ad));
    let x = input(data(xshape, 0.0, &p), ad);
    let y = forward(&conv, x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
        "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let mut lin = linear::build(&ad);
        set_linear(&mut lin, data([3, 4], 10.0, &d), Some(data([3], 20.0, &d)), &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = linear::forward(&lin, x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose(); // burn [in, out] → torch [out, in]
        row("linear", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": flat(dw), "db": grad(&lin.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut lin = linear_nobias::build(&ad);
        set_linear(&mut lin, data([3, 4], 10.0, &d), None, &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = linear_nobias::forward(&lin, x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose();
        row("linear_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g), "dw": flat(dw)}));
    }
    {
        // Conv weights are [out, in/groups, k...] on both sides: no transpose.
        let mut conv = conv1d::build(&ad);
        conv.weight = param(data([3, 2, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 2, 7], 0.0, &d), &ad);
        let y = conv1d::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv1d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }
    row("conv2d", conv2d_row(conv2d::build(&ad), conv2d::forward, [2, 2, 5, 5], &ad));
    {
        let mut conv = conv2d_nobias::build(&ad);
        conv.weight = param(data([3, 2, 3, 3], 10.0, &d), &ad);
        let x = input(data([2, 2, 5, 5], 0.0, &d), &ad);
        let y = conv2d_nobias::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv2d_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "has_bias": conv.bias.is_some()}));
    }
    row("conv2d_stride_pad_dilation", conv2d_row(conv2d_stride_pad_dilation::build(&ad),
        conv2d_stride_pad_dilation::forward, [1, 2, 7, 6], &ad));
    row("conv2d_groups", conv2d_row(conv2d_groups::build(&ad), conv2d_groups::forward, [1, 4, 4, 4], &ad));
    row("conv2d_same_even_kernel", conv2d_row(conv2d_same_even_kernel::build(&ad),
        conv2d_same_even_kernel::forward, [1, 2, 5, 6], &ad));
    {
        let conv = conv2d_same_stride2::build(&d);
        let y = conv2d_same_stride2::forward(&conv, data([1, 2, 5, 5], 0.0, &d));
        row("conv2d_same_stride2", json!({"runs": true, "y_shape": y.dims()}));
    }
    row("conv2d_stride2_explicit_padding", conv2d_row(conv2d_stride2_explicit_padding::build(&ad),
        conv2d_stride2_explicit_padding::forward, [1, 2, 5, 5], &ad));
    row("conv2d_reflect", conv2d_row(conv2d_reflect::build(&ad), conv2d_reflect::forward, [1, 2, 4, 5], &ad));
    {
        // ConvTranspose2d weights are [in, out/groups, k, k] on both sides.
        let mut conv = conv_transpose2d::build(&ad);
        conv.weight = param(data([2, 3, 3, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([1, 2, 3, 4], 0.0, &d), &ad);
        let y = conv_transpose2d::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv_transpose2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut conv = conv_transpose2d_nobias::build(&ad);
        conv.weight = param(data([2, 3, 4, 4], 10.0, &d), &ad);
        let x = input(data([1, 2, 3, 4], 0.0, &d), &ad);
        let y = conv_transpose2d_nobias::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv_transpose2d_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "has_bias": conv.bias.is_some()}));
    }
}

mod linear {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    // weight 存成 [in, out]，PyTorch 的是 [out, in]：搬权重时转置
    pub fn build(d: &Device) -> Linear {
        LinearConfig::new(4, 3).init(d)
    }

    pub fn forward(m: &Linear, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod linear_nobias {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Linear {
        LinearConfig::new(4, 3).with_bias(false).init(d)
    }

    pub fn forward(m: &Linear, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod conv1d {
    use burn::nn::conv::{Conv1d, Conv1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    pub fn build(d: &Device) -> Conv1d {
        Conv1dConfig::new(2, 3, 3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod conv2d {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;

    // weight 和 PyTorch 一样是 [out, in, kh, kw]，不用转置
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_nobias {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;

    // bias=False：Conv2dConfig 的 with_bias(false)，模块里 bias 是 None
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).with_bias(false).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_stride_pad_dilation {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 4], [3, 3])
            .with_stride([2, 2])
            .with_dilation([2, 2])
            .with_padding(PaddingConfig2d::Explicit(2, 2, 2, 2))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_groups {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // weight 是 [out, in / groups, kh, kw]，和 PyTorch 相同
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([4, 6], [3, 3])
            .with_groups(2)
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_same_even_kernel {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // 偶数核：补零的总数是奇数，多出的一个补在末尾（右、下），和 PyTorch 相同
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [2, 4])
            .with_padding(PaddingConfig2d::Same)
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_same_stride2 {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // burn 接受带步长的 Same：输出 = ceil(输入 / 步长)，PyTorch 在构造时就报错
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding(PaddingConfig2d::Same)
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_stride2_explicit_padding {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // 带步长时两边都写出补多少：3×3 核、步长 2，每边补 1
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_reflect {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 卷积本身不补边（默认 Valid）；padding_mode='reflect' 换成先对输入做反射补边
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x.pad([(1, 1), (1, 1)], PadMode::Reflect))
    }
}

mod conv_transpose2d {
    use burn::nn::conv::{ConvTranspose2d, ConvTranspose2dConfig};
    use burn::prelude::*;

    // weight 是 [in, out / groups, kh, kw]，和 PyTorch 相同
    pub fn build(d: &Device) -> ConvTranspose2d {
        ConvTranspose2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_padding_out([1, 1])
            .init(d)
    }

    pub fn forward(m: &ConvTranspose2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv_transpose2d_nobias {
    use burn::nn::conv::{ConvTranspose2d, ConvTranspose2dConfig};
    use burn::prelude::*;

    // DCGAN 的写法：4×4 核、步长 2、每边补 1、没有 bias
    pub fn build(d: &Device) -> ConvTranspose2d {
        ConvTranspose2dConfig::new([2, 3], [4, 4])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_bias(false)
            .init(d)
    }

    pub fn forward(m: &ConvTranspose2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}
