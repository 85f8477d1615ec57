//! The torch → burn map, autograd, activation and loss rows of ref-2-functional.yaml.
//! Each row's burn code is the inline module named by its id (shown on the page as written);
//! main() builds the inputs (the PyTorch script's numbers, see its docstring: computed in f64
//! and rounded to f32 once), calls the module and prints `{"rows": {<id>: {...}}}`.
use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;
use serde_json::{json, Map, Value};

fn grid<const D: usize>(f: impl Fn(f64) -> f64, shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| f((k + 1) as f64) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.sin(), shape, device)
}

fn coef<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.cos(), shape, device)
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// ================================================================ autograd

mod requires_grad {
    use burn::prelude::*;

    // x 要在 autodiff 设备上（如 Device::flex().autodiff()）才能 require_grad
    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let g = (x.clone() * x.clone()).sum().backward();
        (x.is_require_grad(), x.grad(&g).unwrap())
    }
}

mod backward_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, c: Tensor<2>) -> (Tensor<1>, Tensor<2>) {
        let x = x.require_grad();
        let f = (x.clone().tanh() * c).sum();
        let g = f.backward();
        let gx = x.grad(&g).unwrap();
        (f, gx)
    }
}

mod backward_nonscalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.require_grad();
        let y = x.clone() * x.clone() * x.clone();
        // y 不是标量：burn 以全 1 为种子，等于 torch 的 y.backward(torch.ones_like(y))
        let g = y.backward();
        x.grad(&g).unwrap()
    }
}

mod constant_grad {
    use burn::prelude::*;

    // c 没有 require_grad：它是常数，backward 之后没有梯度
    pub fn run(x: Tensor<1>, c: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let g = (x.clone() * c.clone()).sum().backward();
        (c.grad(&g).is_some(), x.grad(&g).unwrap())
    }
}

mod autograd_grad {
    use burn::prelude::*;

    // 没有 autograd.grad：backward() 返回所有叶子的梯度，取需要的那一个
    pub fn run(x: Tensor<2>, c: Tensor<2>) -> Tensor<2> {
        let x = x.require_grad();
        let f = (x.clone().tanh() * c).sum();
        x.grad(&f.backward()).unwrap()
    }
}

mod grad_remove {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (Tensor<1>, bool) {
        let x = x.require_grad();
        let mut g = (x.clone() * x.clone()).sum().backward();
        let gx = x.grad_remove(&mut g).unwrap();
        (gx, x.grad(&g).is_some())
    }
}

mod nonleaf_grad {
    use burn::prelude::*;

    // y 是中间结果：y.grad(&g) 是 None，x 照常有梯度
    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let y = x.clone() * 2.0;
        let g = (y.clone() * y.clone()).sum().backward();
        (y.grad(&g).is_some(), x.grad(&g).unwrap())
    }
}

mod retain_grad {
    use burn::prelude::*;

    // burn 没有 retain_grad：中间结果的 grad() 总是 None，对它 require_grad() 会 panic。
    // 在 y 上加一个全零的叶子 dy：y 的数值不变，图没有断，dy 的梯度就是 y 的梯度。
    pub fn run(x: Tensor<1>) -> (Tensor<1>, Tensor<1>) {
        let x = x.require_grad();
        let dy = x.zeros_like().require_grad();
        let y = x.clone() * 2.0 + dy.clone();
        let g = (y.clone() * y).sum().backward();
        (x.grad(&g).unwrap(), dy.grad(&g).unwrap())
    }
}

mod no_grad {
    use burn::prelude::*;

    // torch.no_grad() 块里的运算：inner() 把 w 移出 autodiff，c 在普通设备上，
    // 结果不进计算图
    pub fn run(w: Tensor<1>, c: Tensor<1>) -> Tensor<1> {
        w.inner() * c
    }
}

mod detach {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let y = x.clone() * x.clone();
        let z = y.clone().detach();
        let g = (y * z.clone()).sum().backward();
        (z.is_require_grad(), x.grad(&g).unwrap())
    }
}

mod requires_grad_false {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (bool, bool) {
        let x = x.require_grad().set_require_grad(false);
        let y = x.clone() * x.clone();
        (x.is_require_grad(), y.is_tracked())
    }
}

mod module_freeze {
    use burn::nn::Linear;
    use burn::prelude::*;

    pub fn run(lin: Linear, x: Tensor<2>) -> (bool, bool, Tensor<2>) {
        let lin = lin.no_grad();
        let x = x.require_grad();
        let g = lin.forward(x.clone()).sum().backward();
        let weight_has_grad = lin.weight.val().grad(&g).is_some();
        (lin.weight.is_require_grad(), weight_has_grad, x.grad(&g).unwrap())
    }
}

// ---------------------------------------------------------------- 梯度累加与裁剪

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

// ---------------------------------------------------------------- 拐点

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

// ================================================================ losses

mod ce_index {
    use burn::nn::loss::CrossEntropyLossConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        CrossEntropyLossConfig::new().init(&x.device()).forward(x, y)
    }
}

mod ce_probs {
    use burn::prelude::*;
    use burn::tensor::loss::cross_entropy_with_logits;

    // 目标是每类的概率 [N, C]：不用 CrossEntropyLoss，用这个函数
    pub fn run(x: Tensor<2>, probs: Tensor<2>) -> Tensor<1> {
        cross_entropy_with_logits(x, probs)
    }
}

mod ce_smoothing {
    use burn::nn::loss::CrossEntropyLossConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let loss = CrossEntropyLossConfig::new().with_smoothing(Some(0.1)).init(&x.device());
        loss.forward(x, y)
    }
}

mod ce_weight {
    use burn::nn::loss::CrossEntropyLossConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, y: Tensor<1, Int>, w: Vec<f32>) -> Tensor<1> {
        let loss = CrossEntropyLossConfig::new().with_weights(Some(w)).init(&x.device());
        loss.forward(x, y)
    }
}

mod ce_weight_smoothing {
    use burn::nn::loss::CrossEntropyLossConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, y: Tensor<1, Int>, w: Vec<f32>) -> Tensor<1> {
        let loss = CrossEntropyLossConfig::new()
            .with_weights(Some(w))
            .with_smoothing(Some(0.1))
            .init(&x.device());
        loss.forward(x, y)
    }
}

mod ce_ignore_index {
    use burn::nn::loss::CrossEntropyLossConfig;
    use burn::prelude::*;

    // torch 的 ignore_index=1：目标是 1 的样本不计入损失
    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let loss = CrossEntropyLossConfig::new().with_pad_tokens(Some(vec![1])).init(&x.device());
        loss.forward(x, y)
    }
}

mod ce_ignore_index_neg {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // ignore_index=-1：pad_tokens 是 usize 的类别号，写不出 -1。照定义写：-1 先夹到 0 免得
    // gather 越界，这些位置乘 0，分母是真实目标的个数
    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let n = y.dims()[0];
        let keep = y.clone().greater_equal_elem(0).float();
        let picked = log_softmax(x, 1).gather(1, y.clamp_min(0).reshape([n, 1])).reshape([n]);
        (picked * keep.clone()).sum().neg() / keep.sum()
    }
}

mod ce_sum {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // CrossEntropyLoss 只取平均：逐样本的损失自己算，再求和
    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let n = y.dims()[0];
        log_softmax(x, 1).gather(1, y.reshape([n, 1])).reshape([n]).neg().sum()
    }
}

mod ce_none {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // CrossEntropyLoss 只取平均：逐样本的损失自己算
    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let n = y.dims()[0];
        log_softmax(x, 1).gather(1, y.reshape([n, 1])).reshape([n]).neg()
    }
}

mod nll {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // nll_loss(log_softmax(x)) 就是取出目标类的 log 概率，取负，平均
    pub fn run(x: Tensor<2>, y: Tensor<1, Int>) -> Tensor<1> {
        let n = y.dims()[0];
        log_softmax(x, 1).gather(1, y.reshape([n, 1])).reshape([n]).neg().mean()
    }
}

mod bce {
    use burn::nn::loss::BinaryCrossEntropyLossConfig;
    use burn::prelude::*;

    // 目标是整数 0/1
    pub fn run(p: Tensor<2>, y: Tensor<2, Int>) -> Tensor<1> {
        BinaryCrossEntropyLossConfig::new().init(&p.device()).forward(p, y)
    }
}

mod bce_weight {
    use burn::nn::loss::BinaryCrossEntropyLossConfig;
    use burn::prelude::*;

    // w 的长度是类数（最后一维），和 torch 的 weight 一样按列广播
    pub fn run(p: Tensor<2>, y: Tensor<2, Int>, w: Vec<f32>) -> Tensor<1> {
        let loss = BinaryCrossEntropyLossConfig::new().with_weights(Some(w)).init(&p.device());
        loss.forward(p, y)
    }
}

mod bce_logits {
    use burn::nn::loss::BinaryCrossEntropyLossConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, y: Tensor<2, Int>) -> Tensor<1> {
        let loss = BinaryCrossEntropyLossConfig::new().with_logits(true).init(&x.device());
        loss.forward(x, y)
    }
}

mod bce_logits_pos_weight {
    use burn::prelude::*;
    use burn::tensor::activation::log_sigmoid;

    // 没有 pos_weight：照 torch 的公式写 −(pw·y·logσ(x) + (1 − y)·logσ(−x)) 的平均
    pub fn run(x: Tensor<2>, y: Tensor<2>, pw: Tensor<1>) -> Tensor<1> {
        let pw = pw.unsqueeze::<2>();
        ((y.clone() * pw * log_sigmoid(x.clone())) + (y.neg() + 1.0) * log_sigmoid(x.neg()))
            .mean()
            .neg()
    }
}

mod bce_soft_targets {
    use burn::prelude::*;
    use burn::tensor::activation::log_sigmoid;

    // BinaryCrossEntropyLoss 的目标只能是整数：概率目标照公式写
    // −(y·logσ(x) + (1 − y)·logσ(−x)) 的平均
    pub fn run(x: Tensor<2>, y: Tensor<2>) -> Tensor<1> {
        ((y.clone() * log_sigmoid(x.clone())) + (y.neg() + 1.0) * log_sigmoid(x.neg()))
            .mean()
            .neg()
    }
}

mod mse {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        MseLoss::new().forward(p, t, Reduction::Mean)
    }
}

mod mse_sum {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        MseLoss::new().forward(p, t, Reduction::Sum)
    }
}

mod mse_none {
    use burn::nn::loss::MseLoss;
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<2> {
        MseLoss::new().forward_no_reduction(p, t)
    }
}

mod l1 {
    use burn::nn::loss::{LpLossConfig, Reduction};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        LpLossConfig::l1().forward(p, t, Reduction::Mean)
    }
}

mod smooth_l1_default {
    use burn::nn::loss::{Reduction, SmoothL1LossConfig};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        SmoothL1LossConfig::new().init().forward_with_reduction(p, t, Reduction::Mean)
    }
}

mod smooth_l1_beta {
    use burn::nn::loss::{Reduction, SmoothL1LossConfig};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        let loss = SmoothL1LossConfig::new().with_beta(0.5).init();
        loss.forward_with_reduction(p, t, Reduction::Mean)
    }
}

mod smooth_l1_beta_2 {
    use burn::nn::loss::{Reduction, SmoothL1LossConfig};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        let loss = SmoothL1LossConfig::new().with_beta(2.0).init();
        loss.forward_with_reduction(p, t, Reduction::Mean)
    }
}

mod huber {
    use burn::nn::loss::{HuberLossConfig, Reduction};
    use burn::prelude::*;

    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        HuberLossConfig::new(2.0).init().forward(p, t, Reduction::Mean)
    }
}

mod huber_vs_smooth_l1 {
    use burn::nn::loss::{HuberLossConfig, Reduction};
    use burn::prelude::*;

    // 把 torch 的 SmoothL1Loss(beta=2.0) 照搬成 HuberLoss(2.0)：结果是 torch 的 2 倍
    pub fn run(p: Tensor<2>, t: Tensor<2>) -> Tensor<1> {
        HuberLossConfig::new(2.0).init().forward(p, t, Reduction::Mean)
    }
}

mod kldiv_batchmean {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;

    // 输入是 log 概率，目标是概率，同 torch
    pub fn run(log_p: Tensor<2>, q: Tensor<2>) -> Tensor<1> {
        KLDivLossConfig::new().init().forward(log_p, q, Reduction::BatchMean)
    }
}

mod kldiv_log_target {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;

    // 目标也是 log 概率
    pub fn run(log_p: Tensor<2>, log_q: Tensor<2>) -> Tensor<1> {
        let loss = KLDivLossConfig::new().with_log_target(true).init();
        loss.forward(log_p, log_q, Reduction::BatchMean)
    }
}

mod kldiv_mean {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;

    pub fn run(log_p: Tensor<2>, q: Tensor<2>) -> Tensor<1> {
        KLDivLossConfig::new().init().forward(log_p, q, Reduction::Mean)
    }
}

mod kldiv_default {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;

    // Reduction::Auto 在 KLDivLoss 里按 BatchMean 算
    pub fn run(log_p: Tensor<2>, q: Tensor<2>) -> Tensor<1> {
        KLDivLossConfig::new().init().forward(log_p, q, Reduction::Auto)
    }
}

// ================================================================ the harness

fn linear(device: &Device) -> Linear {
    // PyTorch's weight is [out, in]; burn stores [in, out].
    Linear {
        weight: Param::from_tensor(data([2, 3], device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::from_floats([0.0, 0.01], device))),
    }
}

fn clip_grads() -> (Tensor<2>, Tensor<1>) {
    let d = Device::flex();
    (grid(|k| 1.5 * (0.7 * k + 1.0).cos(), [2, 3], &d), Tensor::<1>::from_floats([3.0, -4.0], &d))
}

fn autograd(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let (rg, gx) = requires_grad::run(data([6], &ad));
    row("requires_grad", json!({"require_grad": rg, "grad": nums(gx)}));

    let (f, gx) = backward_scalar::run(data([2, 3], &ad), coef([2, 3], &ad));
    row("backward_scalar", json!({"f": nums(f), "shape": gx.dims(), "grad": nums(gx)}));

    row("backward_nonscalar", json!({"grad": nums(backward_nonscalar::run(data([4], &ad)))}));

    let (has, gx) = constant_grad::run(data([3], &ad), coef([3], &ad));
    row("constant_grad", json!({"c_has_grad": has, "grad": nums(gx)}));

    let gx = autograd_grad::run(data([2, 3], &ad), coef([2, 3], &ad));
    row("autograd_grad", json!({"grad_tracked": gx.is_autodiff(), "grad": nums(gx)}));

    let (gx, after) = grad_remove::run(data([3], &ad));
    row("grad_remove", json!({"after": after, "grad": nums(gx)}));

    let (wrg, whg, gx) = module_freeze::run(linear(&ad), data([2, 3], &ad));
    row("module_freeze", json!({"weight_require_grad": wrg, "weight_has_grad": whg, "x_grad": nums(gx)}));

    let (has, gx) = nonleaf_grad::run(data([3], &ad));
    row("nonleaf_grad", json!({"y_has_grad": has, "x_grad": nums(gx)}));

    let (gx, gy) = retain_grad::run(data([3], &ad));
    row("retain_grad", json!({"x_grad": nums(gx), "y_grad": nums(gy)}));

    let y = no_grad::run(data([3], &ad).require_grad(), coef([3], &Device::flex()));
    row("no_grad", json!({"tracked": y.is_autodiff(), "v": nums(y)}));

    let (zrg, gx) = detach::run(Tensor::<1>::from_floats([1.0, 2.0, 3.0], &ad));
    row("detach", json!({"z_require_grad": zrg, "grad": nums(gx)}));

    let (rg, tracked) = requires_grad_false::run(data([3], &ad));
    row("requires_grad_false", json!({"require_grad": rg, "tracked": tracked}));

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

const ACT_X: [f32; 12] = [-25.0, -5.0, -2.5, -1.5, -0.75, -0.25, 0.25, 0.75, 1.5, 2.5, 5.0, 25.0];
const KINK_X: [f32; 6] = [-3.0, -1.0, 0.0, 1.0, 3.0, 6.0];

fn at(points: &[f32], f: impl Fn(Tensor<1>) -> Tensor<1>) -> (Value, Value) {
    let x = Tensor::<1>::from_floats(points, &Device::flex().autodiff()).require_grad();
    let y = f(x.clone());
    let g = y.clone().sum().backward();
    (nums(y), nums(x.grad(&g).unwrap()))
}

/// The twelve regular points: {"y", "dy"}.
fn a(f: impl Fn(Tensor<1>) -> Tensor<1>) -> Value {
    let (y, dy) = at(&ACT_X, f);
    json!({"y": y, "dy": dy})
}

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

fn a_dim(f: impl Fn(Tensor<2>) -> Tensor<2>) -> Value {
    let ad = Device::flex().autodiff();
    let x = Tensor::<1>::from_floats(ACT_X, &ad).reshape([3, 4]).require_grad();
    let y = f(x.clone());
    let g = (y.clone() * coef([3, 4], &ad)).sum().backward();
    json!({"y": nums(y), "dy": nums(x.grad(&g).unwrap())})
}

fn activations(row: &mut impl FnMut(&str, Value)) {
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

const B: usize = 4;
const C: usize = 3;
const TARGETS: [i64; 4] = [2, 0, 1, 2];
const BIN: [i64; 12] = [1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0];

fn logits(ad: &Device) -> Tensor<2> {
    grid(|k| 2.0 * k.sin(), [B, C], ad).require_grad()
}

fn targets(ad: &Device) -> Tensor<1, Int> {
    Tensor::<1, Int>::from_data(TensorData::new(TARGETS.to_vec(), [B]), ad)
}

fn bin(ad: &Device) -> Tensor<2, Int> {
    Tensor::<2, Int>::from_data(TensorData::new(BIN.to_vec(), [B, C]), ad)
}

/// Soft targets: a softmax of 0.5·cos(k), in f64 per row, rounded once.
fn probs_target(ad: &Device) -> Tensor<2> {
    let mut v = Vec::new();
    for r in 0..B {
        let e: Vec<f64> = (0..C).map(|c| (0.5 * ((r * C + c + 1) as f64).cos()).exp()).collect();
        let s: f64 = e.iter().sum();
        v.extend(e.iter().map(|x| (x / s) as f32));
    }
    Tensor::<2>::from_data(TensorData::new(v, [B, C]), ad)
}

fn loss_out<const D: usize>(loss: Tensor<D>, x: &Tensor<2>) -> Value {
    let g = loss.clone().sum().backward();
    json!({"loss": nums(loss), "grad": nums(x.grad(&g).unwrap())})
}

/// A new row's keys: the value "y" and the gradient "dx".
fn loss_new<const D: usize>(loss: Tensor<D>, x: &Tensor<2>) -> Value {
    let g = loss.clone().sum().backward();
    json!({"y": nums(loss), "dx": nums(x.grad(&g).unwrap())})
}

fn losses(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let w3 = || vec![1.0, 2.0, 0.5];
    let ce = |f: &dyn Fn(Tensor<2>, Tensor<1, Int>) -> Tensor<1>| {
        let x = logits(&ad);
        loss_out(f(x.clone(), targets(&ad)), &x)
    };
    row("ce_index", ce(&ce_index::run));
    let x = logits(&ad);
    row("ce_probs", loss_out(ce_probs::run(x.clone(), probs_target(&ad)), &x));
    row("ce_smoothing", ce(&ce_smoothing::run));
    row("ce_weight", ce(&|x, y| ce_weight::run(x, y, w3())));
    row("ce_weight_smoothing", ce(&|x, y| ce_weight_smoothing::run(x, y, w3())));
    row("ce_ignore_index", ce(&ce_ignore_index::run));
    let x = logits(&ad);
    let padded = Tensor::<1, Int>::from_data(TensorData::new(vec![2i64, -1, 1, -1], [B]), &ad);
    row("ce_ignore_index_neg", loss_out(ce_ignore_index_neg::run(x.clone(), padded), &x));
    row("ce_sum", ce(&ce_sum::run));
    row("ce_none", ce(&ce_none::run));
    row("nll", ce(&nll::run));

    let bce_probs = || grid(|k| 1.0 / (1.0 + (-2.0 * k.sin()).exp()), [B, C], &ad).require_grad();
    let p = bce_probs();
    row("bce", loss_out(bce::run(p.clone(), bin(&ad)), &p));
    let p = bce_probs();
    row("bce_weight", loss_out(bce_weight::run(p.clone(), bin(&ad), w3()), &p));
    let x = logits(&ad);
    row("bce_logits", loss_out(bce_logits::run(x.clone(), bin(&ad)), &x));
    let x = logits(&ad);
    let pw = Tensor::<1>::from_floats([3.0, 1.0, 0.5], &ad);
    row("bce_logits_pos_weight", loss_out(bce_logits_pos_weight::run(x.clone(), bin(&ad).float(), pw), &x));
    let x = logits(&ad);
    row("bce_soft_targets", loss_out(bce_soft_targets::run(x.clone(), probs_target(&ad)), &x));

    let reg = |f: &dyn Fn(Tensor<2>, Tensor<2>) -> Tensor<1>| {
        let p = grid(|k| 2.0 * k.sin(), [B, C], &ad).require_grad();
        loss_out(f(p.clone(), coef([B, C], &ad)), &p)
    };
    row("mse", reg(&mse::run));
    row("mse_sum", reg(&mse_sum::run));
    let p = grid(|k| 2.0 * k.sin(), [B, C], &ad).require_grad();
    row("mse_none", loss_out(mse_none::run(p.clone(), coef([B, C], &ad)), &p));
    row("l1", reg(&l1::run));
    row("smooth_l1_default", reg(&smooth_l1_default::run));
    row("smooth_l1_beta", reg(&smooth_l1_beta::run));
    let p = grid(|k| 2.0 * k.sin(), [B, C], &ad).require_grad();
    row("smooth_l1_beta_2", loss_new(smooth_l1_beta_2::run(p.clone(), coef([B, C], &ad)), &p));
    row("huber", reg(&huber::run));
    row("huber_vs_smooth_l1", reg(&huber_vs_smooth_l1::run));

    let kl = |f: &dyn Fn(Tensor<2>, Tensor<2>) -> Tensor<1>, log_target: bool| {
        let x = logits(&ad);
        let q = if log_target { probs_target(&ad).log() } else { probs_target(&ad) };
        loss_out(f(burn::tensor::activation::log_softmax(x.clone(), 1), q), &x)
    };
    row("kldiv_batchmean", kl(&kldiv_batchmean::run, false));
    row("kldiv_log_target", kl(&kldiv_log_target::run, true));
    row("kldiv_mean", kl(&kldiv_mean::run, false));
    row("kldiv_default", kl(&kldiv_default::run, false));
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    autograd(&mut row);
    activations(&mut row);
    losses(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
