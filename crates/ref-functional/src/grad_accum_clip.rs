//! 梯度累积与裁剪: the rows of experiments/reference/ref-2-functional/grad_accum_clip.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn clip_grads() -> (Tensor<2>, Tensor<1>) {
    let d = Device::flex();
    (grid(|k| 1.5 * (0.7 * k + 1.0).cos(), [2, 3], &d), Tensor::<1>::from_floats([3.0, -4.0], &d))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    row("grad_accum_naive", json!({"grad": nums(grad_accum_naive::run(data([3], &ad), coef([3], &ad)))}));
    row("grad_accum_sum", json!({"grad": nums(grad_accum_sum::run(data([3], &ad), coef([3], &ad)))}));
    let batches = (0..2)
        .map(|i| (grid(|k| 0.1 * (k + 6.0 * i as f64) - 0.5, [2, 3], &ad), coef([2, 2], &ad) * (i + 1) as f64))
        .collect();
    let (gw, gb) = grad_accum_module::run(&linear(&ad), batches);
    row("grad_accum_module", json!({"weight": nums(gw.transpose()), "bias": nums(gb)}));
    let (gw, gb) = clip_grads();
    let (w, b) = clip_grad_norm::run(gw, gb);
    row("clip_grad_norm", json!({"w": nums(w), "b": nums(b)}));
    let (gw, gb) = clip_grads();
    let (w, b) = clip_grad_norm_global::run(gw, gb, 1.0);
    row("clip_grad_norm_global", json!({"w": nums(w), "b": nums(b)}));
    let (gw, gb) = clip_grads();
    let (w, b) = clip_grad_value::run(gw, gb);
    row("clip_grad_value", json!({"w": nums(w), "b": nums(b)}));
}

mod grad_accum_naive {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>, c: Tensor<1>) -> Tensor<1> {
        let x = x.require_grad();
        let _g1 = (x.clone() * x.clone()).sum().backward();
        let g2 = (x.clone() * c).sum().backward();
        // 每次 backward() 返回一份新的 Gradients：这里只有第二次的梯度
        x.grad(&g2).unwrap()
    }
}

mod grad_accum_sum {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>, c: Tensor<1>) -> Tensor<1> {
        let x = x.require_grad();
        let g1 = (x.clone() * x.clone()).sum().backward();
        let g2 = (x.clone() * c).sum().backward();
        // 两次 backward 的梯度自己相加
        x.grad(&g1).unwrap() + x.grad(&g2).unwrap()
    }
}

mod grad_accum_module {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::{GradientsAccumulator, GradientsParams};
    use burn::prelude::*;

    // 返回 (weight 的梯度, bias 的梯度)；burn 的 Linear 权重是 [in, out]，torch 是 [out, in]
    pub fn run(lin: &Linear, batches: Vec<(Tensor<2>, Tensor<2>)>) -> (Tensor<2>, Tensor<1>) {
        let mut accum = GradientsAccumulator::<Linear>::new();
        for (x, y) in batches {
            let loss = MseLoss::new().forward(lin.forward(x), y, Reduction::Mean);
            accum.accumulate(lin, GradientsParams::from_grads(loss.backward(), lin));
        }
        let grads = accum.grads();
        let gw: Tensor<2> = grads.get(lin.weight.id).unwrap();
        let gb: Tensor<1> = grads.get(lin.bias.as_ref().unwrap().id).unwrap();
        (gw, gb)
    }
}

mod clip_grad_norm {
    use burn::optim::grad_clipping::GradientClippingConfig;
    use burn::prelude::*;

    // 优化器的 with_grad_clipping(Some(GradientClippingConfig::Norm(1.0))) 对每个参数的梯度
    // 各调用一次 clip_gradient：每个梯度按它自己的范数裁剪
    pub fn run(gw: Tensor<2>, gb: Tensor<1>) -> (Tensor<2>, Tensor<1>) {
        let clip = GradientClippingConfig::Norm(1.0).init();
        (clip.clip_gradient(gw), clip.clip_gradient(gb))
    }
}

mod clip_grad_norm_global {
    use burn::prelude::*;

    // torch 的 clip_grad_norm_：所有梯度合起来算一个范数，每个梯度乘同一个系数
    pub fn run(gw: Tensor<2>, gb: Tensor<1>, max_norm: f64) -> (Tensor<2>, Tensor<1>) {
        let total = (gw.clone().square().sum() + gb.clone().square().sum()).sqrt();
        let coef = (total.add_scalar(1e-6).recip() * max_norm).clamp_max(1.0);
        (gw * coef.clone().unsqueeze::<2>(), gb * coef)
    }
}

mod clip_grad_value {
    use burn::optim::grad_clipping::GradientClippingConfig;
    use burn::prelude::*;

    // 优化器的 with_grad_clipping(Some(GradientClippingConfig::Value(1.0))) 对每个梯度调用的就是它
    pub fn run(gw: Tensor<2>, gb: Tensor<1>) -> (Tensor<2>, Tensor<1>) {
        let clip = GradientClippingConfig::Value(1.0).init();
        (clip.clip_gradient(gw), clip.clip_gradient(gb))
    }
}
