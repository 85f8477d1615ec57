//! 训练循环: the rows of experiments/reference/ref-8-modules/training_loop.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let (x, t) = regression(&ad);
        let (m, losses) = train_step::train(linear_at(3, 4, 10.0, Some(20.0), &d, &ad), x.clone(), t.clone(), 3);
        let (w, b) = linear_params(&m);
        row("train_step", json!({"loss": losses, "w": w, "b": b}));
        let m = clip_grad_value_step::train(linear_at(3, 4, 10.0, Some(20.0), &d, &ad), x.clone(), t.clone(), 2);
        let (w, b) = linear_params(&m);
        row("clip_grad_value_step", json!({"w": w, "b": b}));
        let g = linear_at(4, 2, 10.0, Some(20.0), &d, &ad);
        let dis = linear_at(1, 4, 30.0, Some(40.0), &d, &ad);
        let real = data([4, 4], 70.0, &ad) * 2.0;
        let z = data([4, 2], 80.0, &ad) * 2.0;
        let (g, dis) = gan_step::train(g, dis, real, z, 2);
        let ((gw, gb), (dw, db)) = (linear_params(&g), linear_params(&dis));
        row("gan_step", json!({"g_w": gw, "g_b": gb, "d_w": dw, "d_b": db}));
    }
}

mod train_step {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::momentum::MomentumConfig;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    // zero_grad() 没有对应：每次 backward() 返回一份新的梯度，用完就丢
    pub fn train(mut model: Linear, x: Tensor<2>, target: Tensor<2>, steps: usize) -> (Linear, Vec<f64>) {
        let mut optim = SgdConfig::new()
            .with_momentum(Some(MomentumConfig::new().with_momentum(0.9).with_dampening(0.0)))
            .init();
        let mut losses = Vec::new();
        for _ in 0..steps {
            let loss = MseLoss::new().forward(model.forward(x.clone()), target.clone(), Reduction::Mean);
            losses.push(loss.clone().into_scalar::<f64>());
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.1, model, grads);
        }
        (model, losses)
    }
}

mod clip_grad_value_step {
    use burn::grad_clipping::GradientClippingConfig;
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    // 裁剪交给优化器：step() 里先把每个梯度夹到 [-0.05, 0.05]，再更新
    pub fn train(mut model: Linear, x: Tensor<2>, target: Tensor<2>, steps: usize) -> Linear {
        let mut optim = SgdConfig::new()
            .with_gradient_clipping(Some(GradientClippingConfig::Value(0.05)))
            .init();
        for _ in 0..steps {
            let loss = MseLoss::new().forward(model.forward(x.clone()), target.clone(), Reduction::Mean);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.1, model, grads);
        }
        model
    }
}

mod gan_step {
    use burn::nn::loss::BinaryCrossEntropyLossConfig;
    use burn::nn::Linear;
    use burn::optim::{AdamConfig, GradientsParams};
    use burn::prelude::*;

    // 两个模型、两个优化器。GradientsParams::from_grads(grads, &d) 只取 d 的参数的梯度，
    // 所以生成器的 loss 反传穿过判别器也不会改动判别器
    pub fn train(mut g: Linear, mut d: Linear, real: Tensor<2>, z: Tensor<2>, steps: usize) -> (Linear, Linear) {
        let dev = real.device();
        let bce = BinaryCrossEntropyLossConfig::new().with_logits(true).init(&dev);
        let adam = AdamConfig::new().with_beta_1(0.5).with_epsilon(1e-8);
        let (mut opt_g, mut opt_d) = (adam.init(), adam.init());
        let n = real.dims()[0];
        let (ones, zeros) = (Tensor::<2, Int>::ones([n, 1], &dev), Tensor::<2, Int>::zeros([n, 1], &dev));
        for _ in 0..steps {
            let fake = g.forward(z.clone()).tanh();
            // 判别器：fake.detach()，梯度不流回生成器
            let loss_d = bce.forward(d.forward(real.clone()), ones.clone())
                + bce.forward(d.forward(fake.clone().detach()), zeros.clone());
            let grads = GradientsParams::from_grads(loss_d.backward(), &d);
            d = opt_d.step(0.01, d, grads);
            // 生成器：用更新后的判别器打分
            let loss_g = bce.forward(d.forward(fake), ones.clone());
            let grads = GradientsParams::from_grads(loss_g.backward(), &g);
            g = opt_g.step(0.01, g, grads);
        }
        (g, d)
    }
}
