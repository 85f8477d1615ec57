//! 损失函数: the rows of experiments/reference/ref-2-functional/losses.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

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

pub fn rows(row: &mut impl FnMut(&str, Value)) {
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
