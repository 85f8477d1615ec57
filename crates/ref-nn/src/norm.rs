//! 归一化: the rows of experiments/reference/ref-3-nn/norm.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        // On an autodiff device (and not valid()) BatchNorm takes the training path.
        let mut bn = batchnorm1d_train::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([4, 3], 0.0, &d) * 3.0, &ad);
        let y = batchnorm1d_train::forward(&bn, x.clone());
        let g = backward(&y);
        row("batchnorm1d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "dbeta": grad(&bn.beta.val(), &g), "shape": y.dims()}));
    }
    {
        let mut bn = batchnorm2d_train::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([2, 3, 2, 2], 0.0, &d) * 3.0, &ad);
        let y = batchnorm2d_train::forward(&bn, x.clone());
        let g = backward(&y);
        row("batchnorm2d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "shape": y.dims()}));
    }
    {
        // One step from running_mean 0, running_var 1 (torch's m itself is a fresh BatchNorm1d(3)).
        let x = || leaf(data([4, 3], 0.0, &d) * 3.0, &ad);
        let m = batchnorm_running_mean::step(&batchnorm_running_mean::build(&ad), x());
        row("batchnorm_running_mean", json!({"running_mean": flat(m)}));
        let v = batchnorm_running_var::step(&batchnorm_running_var::build(&ad), x());
        row("batchnorm_running_var", json!({"running_var": flat(v)}));
        let v = batchnorm_running_var_unbiased::step(&batchnorm_running_var_unbiased::build(&ad), x());
        row("batchnorm_running_var_unbiased", json!({"running_var": flat(v)}));
        let mut bn = batchnorm_momentum_none::build(&ad);
        let batches = (0..3).map(|t| leaf(data([4, 3], 10.0 * t as f64, &d) * 3.0, &ad)).collect();
        let m = batchnorm_momentum_none::train(&mut bn, batches);
        row("batchnorm_momentum_none", json!({"running_mean": flat(m)}));
    }
    {
        // Built on the autodiff device like a model in training; the row's valid() is the eval().
        let mut bn = batchnorm2d_eval::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        bn.running_mean = RunningState::new(leaf(data([3], 60.0, &d), &ad));
        bn.running_var = RunningState::new(leaf(data([3], 70.0, &d).abs().add_scalar(0.5), &ad));
        let y = batchnorm2d_eval::forward(&bn, data([2, 3, 2, 2], 0.0, &d));
        row("batchnorm2d_eval", y_shape(y));
    }
    {
        let mut ln = layernorm::build(&ad);
        ln.gamma = param(data([4], 10.0, &d), &ad);
        ln.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = layernorm::forward(&ln, x.clone());
        let g = backward(&y);
        row("layernorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&ln.gamma.val(), &g), "db": grad(&ln.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut gn = groupnorm::build(&ad);
        gn.gamma = Some(param(data([4], 10.0, &d), &ad));
        gn.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 4, 3], 0.0, &d) * 2.0, &ad);
        let y = groupnorm::forward(&gn, x.clone());
        let g = backward(&y);
        row("groupnorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&gn.gamma.as_ref().unwrap().val(), &g), "db": grad(&gn.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let inorm = instancenorm::build(&ad);
        let x = input(data([2, 3, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = instancenorm::forward(&inorm, x.clone());
        let g = backward(&y);
        row("instancenorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g)}));

        let mut inorm = instancenorm_affine::build(&ad);
        inorm.gamma = Some(param(data([3], 10.0, &d), &ad));
        inorm.beta = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 3, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = instancenorm_affine::forward(&inorm, x.clone());
        let g = backward(&y);
        row("instancenorm_affine", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&inorm.gamma.as_ref().unwrap().val(), &g),
            "db": grad(&inorm.beta.as_ref().unwrap().val(), &g)}));
    }
}

mod batchnorm1d_train {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // 训练模式（PyTorch 的 train()）：模块和输入在 autodiff 设备上、没有调 valid()，用批统计量
    pub fn forward(m: &BatchNorm, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod batchnorm2d_train {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // 同一个 BatchNorm 收 [N, C]、[N, C, L]、[N, C, H, W]
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    pub fn forward(m: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod batchnorm_running_mean {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // momentum 默认 0.1，和 PyTorch 相同
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let _ = m.forward(x);
        m.running_mean.value_sync()
    }
}

mod batchnorm_running_var {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // running_var 按有偏的批方差（除以 n）更新
    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let _ = m.forward(x);
        m.running_var.value_sync()
    }
}

mod batchnorm_running_var_unbiased {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // BatchNorm 没有这个开关：forward 之后按 PyTorch 的公式重写 running_var，
    // 批方差用无偏的 var（除以 n − 1）。x 是 [N, C]；[N, C, H, W] 先换成 [N·H·W, C]
    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let before = m.running_var.value_sync();
        let _ = m.forward(x.clone());
        let [_, c] = x.dims();
        let var = x.detach().var(0).reshape([c]);
        let momentum = m.momentum;
        m.running_var
            .update(before.mul_scalar(1.0 - momentum) + var.mul_scalar(momentum));
        m.running_var.value_sync()
    }
}

mod batchnorm_momentum_none {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // 没有 momentum=None：第 t 个批次（t 从 0 起）之前把 momentum 设成 1 / (t + 1)，
    // running_mean 就是累积平均
    pub fn train(m: &mut BatchNorm, batches: Vec<Tensor<2>>) -> Tensor<1> {
        for (t, x) in batches.into_iter().enumerate() {
            m.momentum = 1.0 / (t + 1) as f64;
            let _ = m.forward(x);
        }
        m.running_mean.value_sync()
    }
}

mod batchnorm2d_eval {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // PyTorch 的 eval()：valid() 关掉训练标志、去掉 autodiff，forward 用 running_mean / running_var；
    // valid() 之后模块在普通设备上，x 也要在普通设备上
    pub fn forward(m: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
        let m = m.valid();
        m.forward(x)
    }
}

mod layernorm {
    use burn::nn::{LayerNorm, LayerNormConfig};
    use burn::prelude::*;

    // PyTorch 的 weight、bias 叫 gamma、beta
    pub fn build(d: &Device) -> LayerNorm {
        LayerNormConfig::new(4).init(d)
    }

    pub fn forward(m: &LayerNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod groupnorm {
    use burn::nn::{GroupNorm, GroupNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> GroupNorm {
        GroupNormConfig::new(2, 4).init(d)
    }

    pub fn forward(m: &GroupNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod instancenorm {
    use burn::nn::{InstanceNorm, InstanceNormConfig};
    use burn::prelude::*;

    // PyTorch 的 InstanceNorm 默认 affine=False；burn 默认带 gamma、beta，要关掉
    pub fn build(d: &Device) -> InstanceNorm {
        InstanceNormConfig::new(3).with_affine(false).init(d)
    }

    pub fn forward(m: &InstanceNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod instancenorm_affine {
    use burn::nn::{InstanceNorm, InstanceNormConfig};
    use burn::prelude::*;

    // affine 默认 true：gamma、beta 对应 PyTorch 的 weight、bias
    pub fn build(d: &Device) -> InstanceNorm {
        InstanceNormConfig::new(3).init(d)
    }

    pub fn forward(m: &InstanceNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}
