"""VAE：ref-7-ops/vae.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def vae_reparam():
    mu, logvar, eps = leaf(data(2, 3)), leaf(coef(2, 3)), wave(2, 3)
    z = mu + eps * torch.exp(0.5 * logvar)
    return backward(z, grad_mu=mu, grad_logvar=logvar)


@row
def vae_kl():
    mu, logvar = leaf(data(2, 3)), leaf(coef(2, 3))
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    kl.backward()
    return {"loss": vals(kl), "grad_mu": vals(mu.grad), "grad_logvar": vals(logvar.grad)}
