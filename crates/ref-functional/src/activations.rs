//! 激活函数: the rows of experiments/reference/ref-2-functional/activations.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// The twelve regular points: {"y", "dy"}.
fn a(f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    let (y, dy) = at(&ACT_X, f);
    json!({"y": y, "dy": dy})
}

fn a_dim(f: impl Fn(Tensor<2>) -> Tensor<2>) -> Value {
    let ad = Device::flex().autodiff();
    let x = Tensor::<1>::from_floats(ACT_X, &ad).reshape([3, 4]).require_grad();
    let y = f(x.clone());
    let g = (y.clone() * coef([3, 4], &ad)).sum().backward();
    json!({"y": nums(y), "dy": nums(x.grad(&g).unwrap())})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    row("relu", a(relu::run));
    row("leaky_relu_default", a(leaky_relu_default::run));
    row("leaky_relu_slope", a(leaky_relu_slope::run));
    row("prelu_default", a(|x| prelu_default::run(x, &ad)));
    row("gelu_exact", a(gelu_exact::run));
    row("gelu_tanh", a(gelu_tanh::run));
    row("silu", a(silu::run));
    row("sigmoid", a(sigmoid::run));
    row("log_sigmoid", a(log_sigmoid::run));
    row("tanh", a(tanh::run));
    row("softplus_default", a(softplus_default::run));
    row("softplus_beta", a(softplus_beta::run));
    row("softmax", a_dim(softmax::run));
    row("log_softmax", a_dim(log_softmax::run));
    row("hardtanh", a(hardtanh::run));
    row("relu6", a(relu6::run));
    row("hardsigmoid", a(hardsigmoid::run));
    row("hardsigmoid_sixth", a(hardsigmoid_sixth::run));
    row("hardswish", a(hardswish::run));
    row("elu", a(elu::run));
    row("selu", a(selu::run));
    row("celu", a(celu::run));
    row("mish", a(mish::run));
    row("softsign", a(softsign::run));
}

// ================================================================ activations

mod relu {
    use burn::nn::activation::Relu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Relu::new().forward(x)
    }
}

mod leaky_relu_default {
    use burn::nn::activation::LeakyReluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        LeakyReluConfig::new().init().forward(x)
    }
}

mod leaky_relu_slope {
    use burn::nn::activation::LeakyReluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        LeakyReluConfig::new().with_negative_slope(0.2).init().forward(x)
    }
}

mod prelu_default {
    use burn::nn::activation::PReluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>, device: &Device) -> Tensor<1> {
        PReluConfig::new().init(device).forward(x)
    }
}

mod gelu_exact {
    use burn::nn::activation::Gelu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Gelu::new().forward(x)
    }
}

mod gelu_tanh {
    use burn::nn::activation::Gelu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Gelu::new_approximate().forward(x)
    }
}

mod silu {
    use burn::nn::activation::SiLU;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        SiLU::new().forward(x)
    }
}

mod sigmoid {
    use burn::nn::activation::Sigmoid;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Sigmoid::new().forward(x)
    }
}

mod log_sigmoid {
    use burn::nn::activation::LogSigmoid;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        LogSigmoid::new().forward(x)
    }
}

mod tanh {
    use burn::nn::activation::Tanh;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Tanh::new().forward(x)
    }
}

mod softplus_default {
    use burn::nn::activation::SoftplusConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        SoftplusConfig::new().init().forward(x)
    }
}

mod softplus_beta {
    use burn::nn::activation::SoftplusConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        SoftplusConfig::new().with_beta(2.0).with_threshold(10.0).init().forward(x)
    }
}

mod softmax {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        softmax(x, 1)
    }
}

mod log_softmax {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        log_softmax(x, 1)
    }
}

mod hardtanh {
    use burn::nn::activation::HardtanhConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardtanhConfig::new().init().forward(x)
    }
}

mod relu6 {
    use burn::nn::activation::Relu6;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Relu6::new().forward(x)
    }
}

mod hardsigmoid {
    use burn::nn::activation::HardSigmoidConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardSigmoidConfig::new().init().forward(x)
    }
}

mod hardsigmoid_sixth {
    use burn::nn::activation::HardSigmoidConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardSigmoidConfig::new().with_alpha(1.0 / 6.0).init().forward(x)
    }
}

mod hardswish {
    use burn::nn::activation::HardSwish;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        HardSwish::new().forward(x)
    }
}

mod elu {
    use burn::nn::activation::EluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        EluConfig::new().init().forward(x)
    }
}

mod selu {
    use burn::nn::activation::Selu;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Selu::new().forward(x)
    }
}

mod celu {
    use burn::nn::activation::CeluConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        CeluConfig::new().init().forward(x)
    }
}

mod mish {
    use burn::nn::activation::Mish;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Mish::new().forward(x)
    }
}

mod softsign {
    use burn::nn::activation::Softsign;
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        Softsign::new().forward(x)
    }
}
