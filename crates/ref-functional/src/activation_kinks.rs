//! 激活函数的拐点: the rows of experiments/reference/ref-2-functional/activation_kinks.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const KINK_X: [f32; 6] = [-3.0, -1.0, 0.0, 1.0, 3.0, 6.0];

/// The kinks only: {"y", "dy"}.
fn kink(f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    let (y, dy) = at(&KINK_X, f);
    json!({"y": y, "dy": dy})
}

/// A fix of a kink row, on the regular points and the kinks: {"y", "dx"}.
fn fixed(f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    let points: Vec<f32> = ACT_X.iter().chain(KINK_X.iter()).copied().collect();
    let (y, dx) = at(&points, f);
    json!({"y": y, "dx": dx})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    row("relu_kink", kink(relu_kink::run));
    row("leaky_relu_kink", kink(leaky_relu_kink::run));
    row("leaky_relu_kink_fix", fixed(leaky_relu_kink_fix::run));
    row("hardtanh_kink", kink(hardtanh_kink::run));
    row("hardtanh_kink_fix", fixed(hardtanh_kink_fix::run));
    row("relu6_kink", kink(relu6_kink::run));
    row("relu6_kink_fix", fixed(relu6_kink_fix::run));
    row("hardswish_kink", kink(hardswish_kink::run));
    row("hardswish_kink_fix", fixed(hardswish_kink_fix::run));
    row("elu_kink", kink(elu_kink::run));
    row("selu_kink", kink(selu_kink::run));
    row("selu_kink_fix", fixed(selu_kink_fix::run));
}

mod relu_kink {
    use burn::nn::activation::Relu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Relu::new().forward(x)
    }
}

mod leaky_relu_kink {
    use burn::nn::activation::LeakyReluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        LeakyReluConfig::new().init().forward(x)
    }
}

mod leaky_relu_kink_fix {
    use burn::prelude::*;

    // torch 的 LeakyReLU：x > 0 取 x，其余（x = 0 在内）取 0.01·x
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let negative = x.clone().lower_equal_elem(0.0);
        x.clone().mask_where(negative, x * 0.01)
    }
}

mod hardtanh_kink {
    use burn::nn::activation::HardtanhConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardtanhConfig::new().init().forward(x)
    }
}

mod hardtanh_kink_fix {
    use burn::prelude::*;

    // torch 的 Hardtanh：x <= -1 和 x >= 1 填常数，梯度为零，只有 -1 < x < 1 传梯度
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let low = x.clone().lower_equal_elem(-1.0);
        let high = x.clone().greater_equal_elem(1.0);
        x.mask_fill(low, -1.0).mask_fill(high, 1.0)
    }
}

mod relu6_kink {
    use burn::nn::activation::Relu6;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Relu6::new().forward(x)
    }
}

mod relu6_kink_fix {
    use burn::prelude::*;

    // torch 的 ReLU6：x <= 0 和 x >= 6 填常数，梯度为零，只有 0 < x < 6 传梯度
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let low = x.clone().lower_equal_elem(0.0);
        let high = x.clone().greater_equal_elem(6.0);
        x.mask_fill(low, 0.0).mask_fill(high, 6.0)
    }
}

mod hardswish_kink {
    use burn::nn::activation::HardSwish;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardSwish::new().forward(x)
    }
}

mod hardswish_kink_fix {
    use burn::prelude::*;

    // torch 的 Hardswish：x <= -3 取 0，x >= 3 取 x，中间 x·(x + 3)/6；
    // 所以 -3 上的梯度是 0，3 上的梯度是 1
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let low = x.clone().lower_equal_elem(-3.0);
        let high = x.clone().greater_equal_elem(3.0);
        let middle = x.clone() * (x.clone() + 3.0) / 6.0;
        middle.mask_fill(low, 0.0).mask_where(high, x)
    }
}

mod elu_kink {
    use burn::nn::activation::EluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        EluConfig::new().init().forward(x)
    }
}

mod selu_kink {
    use burn::nn::activation::Selu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Selu::new().forward(x)
    }
}

mod selu_kink_fix {
    use burn::prelude::*;

    // torch 的 SELU：x <= 0（x = 0 在内）走负半轴 scale·alpha·(exp(x) − 1)
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        const ALPHA: f64 = 1.6732632423543772848170429916717;
        const SCALE: f64 = 1.0507009873554804934193349852946;
        let negative = x.clone().lower_equal_elem(0.0);
        let pos = x.clone() * SCALE;
        let neg = (x.exp() - 1.0) * (ALPHA * SCALE);
        pos.mask_where(negative, neg)
    }
}
