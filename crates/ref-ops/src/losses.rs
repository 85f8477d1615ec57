//! 损失: the rows of experiments/reference/ref-7-ops/losses.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let logits = || grid(|k| 2.0 * k.sin(), [4, 3], &ad).require_grad();
    let x = logits();
    let loss = cross_entropy_functional::run(x.clone(), ints(vec![2, 0, 1, 2], [4], &ad));
    let g = loss.backward();
    row("cross_entropy_functional", loss_out(loss, json!({"dx": grad(&x, &g)})));
    let x = logits();
    let q = burn::tensor::activation::softmax(coef([4, 3], &ad) * 3.0, 1);
    let loss = kl_div_functional::run(x.clone(), q);
    let g = loss.backward();
    row("kl_div_functional", loss_out(loss, json!({"dx": grad(&x, &g)})));
    let p = grid(|k| 1.0 / (1.0 + (-2.0 * k.sin()).exp()), [2, 6], &ad).require_grad();
    let target = grid(|k| 0.5 + 0.45 * k.cos(), [2, 6], &ad);
    let loss = bce_soft::run(p.clone(), target);
    let g = loss.backward();
    row("bce_soft", loss_out(loss, json!({"dx": grad(&p, &g)})));
}

mod cross_entropy_functional {
    use burn::prelude::*;
    use burn::tensor::loss::cross_entropy_with_logits;

    // 函数式的交叉熵要的是目标概率：类别下标先 one_hot
    pub fn run(logits: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        let classes = logits.dims()[1];
        cross_entropy_with_logits(logits, targets.one_hot::<2>(classes).float())
    }
}

mod kl_div_functional {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // 没有函数式的 kl_div：用损失模块，输入是 log 概率，目标是概率
    pub fn run(x: Tensor<2>, q: Tensor<2>) -> Tensor<1> {
        KLDivLossConfig::new().init().forward(log_softmax(x, 1), q, Reduction::BatchMean)
    }
}

mod bce_soft {
    use burn::prelude::*;

    // 目标是 [0, 1] 里的小数（BinaryCrossEntropyLoss 只收整数目标）；
    // 和 PyTorch 一样把 log 截在 -100
    pub fn run(p: Tensor<2>, target: Tensor<2>) -> Tensor<1> {
        let log_p = p.clone().log().clamp_min(-100.0);
        let log_not_p = p.neg().add_scalar(1.0).log().clamp_min(-100.0);
        let not_target = target.clone().neg().add_scalar(1.0);
        (target * log_p + not_target * log_not_p).sum().neg()
    }
}
