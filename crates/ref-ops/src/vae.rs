//! VAE: the rows of experiments/reference/ref-7-ops/vae.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let (mu, logvar) = (data([2, 3], &ad).require_grad(), coef([2, 3], &ad).require_grad());
    let y = vae_reparam::run(mu.clone(), logvar.clone(), wave([2, 3], &ad));
    let g = gsum(&y);
    row("vae_reparam", with_y(&y, json!({"grad_mu": grad(&mu, &g), "grad_logvar": grad(&logvar, &g)})));
    let (mu, logvar) = (data([2, 3], &ad).require_grad(), coef([2, 3], &ad).require_grad());
    let loss = vae_kl::run(mu.clone(), logvar.clone());
    let g = loss.backward();
    row("vae_kl", loss_out(loss, json!({"grad_mu": grad(&mu, &g), "grad_logvar": grad(&logvar, &g)})));
}

mod vae_reparam {
    use burn::prelude::*;

    // eps 从外面给（训练时是 logvar.random_like(Distribution::Normal(0.0, 1.0))）
    pub fn run(mu: Tensor<2>, logvar: Tensor<2>, eps: Tensor<2>) -> Tensor<2> {
        mu + eps * (logvar * 0.5).exp()
    }
}

mod vae_kl {
    use burn::prelude::*;

    // -0.5 · Σ(1 + logvar - mu² - exp(logvar))
    pub fn run(mu: Tensor<2>, logvar: Tensor<2>) -> Tensor<1> {
        (logvar.clone() + 1.0 - mu.powi_scalar(2) - logvar.exp()).sum() * -0.5
    }
}
