//! 概率分布: the rows of experiments/reference/ref-7-ops/distributions.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const ACTIONS: [i64; 4] = [2, 0, 1, 2];

/// The fixed draws (one category of probability 1 a row) and the frequencies of 20000 draws.
fn sample_row(fixed: Tensor<2, Int>, draws: Tensor<1, Int>) -> Value {
    let s: Vec<i64> = draws.to_data().try_to_vec_as::<i64>().unwrap();
    let freq: Vec<f64> = (0..3).map(|c| s.iter().filter(|&&v| v == c).count() as f64 / s.len() as f64).collect();
    json!({"fixed": iv(&fixed), "shape": fixed.dims().to_vec(), "freq": freq})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let logits = || (data([4, 3], &ad) * 4.0).require_grad();

    let x = logits();
    let y = categorical_log_prob::run(x.clone(), ints(ACTIONS.to_vec(), [4], &ad));
    row("categorical_log_prob", with_y(&y, json!({"dx": grad(&x, &gsum(&y))})));
    let x = logits();
    let y = categorical_entropy::run(x.clone());
    row("categorical_entropy", with_y(&y, json!({"dx": grad(&x, &gsum(&y))})));

    let one_hot = || Tensor::<2>::from_data([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], &d);
    let probs = || floats(&[0.2, 0.5, 0.3], &d);
    d.seed(0);
    let fixed = categorical_sample_naive::run(one_hot(), 4);
    row("categorical_sample_naive", sample_row(fixed, categorical_sample_naive::draws(probs(), 20000)));
    d.seed(0);
    let fixed = categorical_sample::run(one_hot(), 4);
    row("categorical_sample", sample_row(fixed, categorical_sample::draws(probs(), 20000)));
}

mod categorical_log_prob {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // Categorical(logits=logits).log_prob(a)：每行的 log_softmax 取出动作 a 那一列
    pub fn run(logits: Tensor<2>, actions: Tensor<1, Int>) -> Tensor<1> {
        let [n, _] = logits.dims();
        log_softmax(logits, 1).gather(1, actions.reshape([n, 1])).reshape([n])
    }
}

mod categorical_entropy {
    use burn::prelude::*;
    use burn::tensor::activation::{log_softmax, softmax};

    // Categorical(logits=logits).entropy()：-(p · log p) 按行求和
    pub fn run(logits: Tensor<2>) -> Tensor<1> {
        let p = softmax(logits.clone(), 1);
        let log_p = log_softmax(logits, 1);
        (p * log_p).sum_dim(1).neg().squeeze_dim::<1>(1)
    }
}

mod categorical_sample_naive {
    use burn::prelude::*;

    // categorical(n)：每行有放回地抽 n 个类别，样本在最后一维，[batch, n]
    pub fn run(probs: Tensor<2>, n: usize) -> Tensor<2, Int> {
        probs.categorical(n)
    }

    pub fn draws(probs: Tensor<1>, n: usize) -> Tensor<1, Int> {
        probs.categorical(n)
    }
}

mod categorical_sample {
    use burn::prelude::*;

    // PyTorch 的 sample((n,)) 把样本放在最前：[batch, n] 转置成 [n, batch]
    pub fn run(probs: Tensor<2>, n: usize) -> Tensor<2, Int> {
        probs.categorical(n).transpose()
    }

    pub fn draws(probs: Tensor<1>, n: usize) -> Tensor<1, Int> {
        probs.categorical(n)
    }
}
