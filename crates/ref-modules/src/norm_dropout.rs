//! 归一化与 Dropout: the rows of experiments/reference/ref-8-modules/norm_dropout.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        ad.seed(0);
        let m = dropout2d::Dropout2d { prob: 0.5 };
        let y = m.forward(Tensor::<4>::ones([8, 16, 3, 3], &ad));
        let v = flat(y.clone());
        let whole = v.chunks(9).all(|c| c.iter().all(|&x| x == c[0]));
        let mut values = v.clone();
        values.sort_by(|a, b| a.partial_cmp(b).unwrap());
        values.dedup();
        let x = data([2, 3, 2, 2], 0.0, &d);
        let eval_identity = flat(m.forward(x.clone())) == flat(x);
        row("dropout2d", json!({"shape": y.dims(), "values": values, "whole_channels": whole,
            "eval_identity": eval_identity}));
    }
    {
        let mut m = rms_norm::build(&ad);
        m.gamma = param(data([4], 10.0, &d), &ad);
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = rms_norm::forward(&m, x.clone());
        let g = backward(&y);
        row("rms_norm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&m.gamma.val(), &g)}));
    }
    {
        let x = || data([2, 3, 4], 0.0, &d) * 1e-3;
        let mut m = rms_norm_default_eps::build(&d);
        m.gamma = Param::from_tensor(data([4], 10.0, &d));
        let y = rms_norm_default_eps::forward(&m, x());
        row("rms_norm_default_eps", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = rms_norm_default_eps_fix::build(&d);
        m.gamma = Param::from_tensor(data([4], 10.0, &d));
        let y = rms_norm_default_eps_fix::forward(&m, x());
        row("rms_norm_default_eps_fix", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
}

mod dropout2d {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有 Dropout2d：每个 (样本, 通道) 抽一次保留与否，整张特征图一起置零；
    // 和 burn 的 Dropout 一样，只在 autodiff 设备上丢弃（valid() 之后不丢）
    #[derive(Module, Debug)]
    pub struct Dropout2d {
        pub prob: f64,
    }

    impl Dropout2d {
        pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
            if !x.device().is_autodiff() || self.prob == 0.0 {
                return x;
            }
            let [n, c, h, w] = x.dims();
            let keep = 1.0 - self.prob;
            let mask = Tensor::<4>::random([n, c, 1, 1], Distribution::Bernoulli(keep), &x.device());
            x * mask.expand([n, c, h, w]) / keep
        }
    }
}

mod rms_norm {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    // weight 叫 gamma
    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).with_epsilon(1e-5).init(d)
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod rms_norm_default_eps {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).init(d) // epsilon 默认 1e-5
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod rms_norm_default_eps_fix {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    // PyTorch 的 eps=None 取 torch.finfo(x.dtype).eps，f32 是 2^-23
    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).with_epsilon(f32::EPSILON as f64).init(d)
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}
