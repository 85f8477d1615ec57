//! 卷积与池化: the rows of experiments/reference/ref-7-ops/conv_pool.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let bias = || floats(&[0.1, -0.2, 0.3], &ad).require_grad();

    let (x, w, b) = (data([2, 2, 7], &ad).require_grad(), coef([3, 2, 3], &ad).require_grad(), bias());
    let y = conv1d_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("conv1d_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));
    let (x, w, b) = (data([1, 2, 5, 5], &ad).require_grad(), coef([3, 2, 3, 3], &ad).require_grad(), bias());
    let y = conv2d_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("conv2d_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));
    let (x, w) = (data([1, 4, 6, 6], &ad).require_grad(), coef([4, 2, 3, 3], &ad).require_grad());
    let y = conv2d_functional_groups::run(x.clone(), w.clone());
    let g = gsum(&y);
    row("conv2d_functional_groups", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g)})));
    let one = |name: &str, x: Tensor<4>, y: Tensor<4>, row: &mut dyn FnMut(&str, Value)| {
        let g = gsum(&y);
        row(name, with_y(&y, json!({"dx": grad(&x, &g)})));
    };

    let x = data([1, 2, 3, 4], &ad).require_grad();
    let y = unfold::run(x.clone());
    let g = gsum(&y);
    row("unfold", with_y(&y, json!({"dx": grad(&x, &g)})));
    let x = data([1, 8, 6], &ad).require_grad();
    let y = fold::run(x.clone());
    let g = gsum(&y);
    row("fold", with_y(&y, json!({"dx": grad(&x, &g)})));
    let x = data([1, 8, 2, 3], &ad).require_grad();
    one("pixel_shuffle", x.clone(), pixel_shuffle::run(x), row);
    row("pixel_unshuffle", out(pixel_unshuffle::run(data([1, 2, 4, 6], &ad))));
    let x = data([1, 2, 4, 6], &ad).require_grad();
    one("max_pool2d_functional", x.clone(), max_pool2d_functional::run(x), row);
    let (y, idx) = max_pool2d_indices::run(data([1, 2, 4, 6], &ad));
    row("max_pool2d_indices", json!({"y": fv(&y), "shape": y.dims().to_vec(), "indices": iv(&idx)}));
    let x = data([1, 2, 5, 5], &ad).require_grad();
    one("avg_pool2d_functional", x.clone(), avg_pool2d_functional::run(x), row);
    let x = data([2, 3, 4, 5], &ad).require_grad();
    one("adaptive_avg_pool2d_functional", x.clone(), adaptive_avg_pool2d_functional::run(x), row);
}

mod conv1d_functional {
    use burn::prelude::*;
    use burn::tensor::module::conv1d;
    use burn::tensor::ops::ConvOptions;

    // 权重布局和 PyTorch 一样：[out, in, k]；ConvOptions::new(stride, padding, dilation, groups)
    pub fn run(x: Tensor<3>, w: Tensor<3>, b: Tensor<1>) -> Tensor<3> {
        conv1d(x, w, Some(b), ConvOptions::new([2], [1], [1], 1))
    }
}

mod conv2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::conv2d;
    use burn::tensor::ops::ConvOptions;

    // 权重 [out, in, kh, kw]，和 PyTorch 一样
    pub fn run(x: Tensor<4>, w: Tensor<4>, b: Tensor<1>) -> Tensor<4> {
        conv2d(x, w, Some(b), ConvOptions::new([1, 1], [1, 1], [1, 1], 1))
    }
}

mod conv2d_functional_groups {
    use burn::prelude::*;
    use burn::tensor::module::conv2d;
    use burn::tensor::ops::ConvOptions;

    // 权重 [out, in / groups, kh, kw]
    pub fn run(x: Tensor<4>, w: Tensor<4>) -> Tensor<4> {
        conv2d(x, w, None, ConvOptions::new([2, 2], [2, 2], [2, 2], 2))
    }
}

mod unfold {
    use burn::prelude::*;
    use burn::tensor::module::unfold4d;
    use burn::tensor::ops::UnfoldOptions;

    // [n, c, h, w] → [n, c·kh·kw, 块数]；UnfoldOptions::new(stride, padding, dilation)
    pub fn run(x: Tensor<4>) -> Tensor<3> {
        unfold4d(x, [2, 2], UnfoldOptions::new([1, 1], [0, 0], [1, 1]))
    }
}

mod fold {
    use burn::prelude::*;
    use burn::tensor::module::fold4d;
    use burn::tensor::ops::UnfoldOptions;

    // [n, c·kh·kw, 块数] → [n, c, 3, 4]，重叠处相加
    pub fn run(x: Tensor<3>) -> Tensor<4> {
        fold4d(x, [3, 4], [2, 2], UnfoldOptions::new([1, 1], [0, 0], [1, 1]))
    }
}

mod pixel_shuffle {
    use burn::nn::PixelShuffleConfig;
    use burn::prelude::*;

    // 没有函数式的 pixel_shuffle：用模块（它没有权重）
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        PixelShuffleConfig::new(2).init().forward(x)
    }
}

mod pixel_unshuffle {
    use burn::nn::PixelUnshuffleConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        PixelUnshuffleConfig::new(2).init().forward(x)
    }
}

mod max_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::max_pool2d;
    use burn::tensor::ops::MaxPoolOptions;

    // MaxPoolOptions::new(kernel)：stride 默认等于 kernel，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        max_pool2d(x, MaxPoolOptions::new([2, 2]))
    }
}

mod max_pool2d_indices {
    use burn::prelude::*;
    use burn::tensor::module::max_pool2d_with_indices;
    use burn::tensor::ops::MaxPoolOptions;

    // 下标是每个通道里展平的 h·w 位置，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> (Tensor<4>, Tensor<4, Int>) {
        max_pool2d_with_indices(x, MaxPoolOptions::new([2, 2]))
    }
}

mod avg_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::avg_pool2d;
    use burn::tensor::ops::AvgPoolOptions;

    // count_include_pad 默认 true，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        let options = AvgPoolOptions::new([3, 3]).with_stride([2, 2]).with_padding([1, 1]);
        avg_pool2d(x, options)
    }
}

mod adaptive_avg_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::adaptive_avg_pool2d;

    // 全局平均池化：[n, c, h, w] → [n, c, 1, 1]
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        adaptive_avg_pool2d(x, [1, 1])
    }
}
