"""训练循环：ref-8-modules/training_loop.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def train_step():
    m = small_linear()
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    x, t = regression()
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = F.mse_loss(m(x), t)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return {"loss": losses, "w": flat(m.weight), "b": flat(m.bias)}


@row
def clip_grad_value_step():
    m = small_linear()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x, t = regression()
    for _ in range(2):
        opt.zero_grad()
        F.mse_loss(m(x), t).backward()
        nn.utils.clip_grad_value_(m.parameters(), 0.05)
        opt.step()
    return {"w": flat(m.weight), "b": flat(m.bias)}


@row
def gan_step():
    g, d = nn.Linear(2, 4), nn.Linear(4, 1)
    setp(g.weight, 10.0)
    setp(g.bias, 20.0)
    setp(d.weight, 30.0)
    setp(d.bias, 40.0)
    opt_g = torch.optim.Adam(g.parameters(), lr=0.01, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(d.parameters(), lr=0.01, betas=(0.5, 0.999))
    bce = nn.BCEWithLogitsLoss()
    real, z = data(4, 4, phase=70.0) * 2, data(4, 2, phase=80.0) * 2
    ones, zeros = torch.ones(4, 1), torch.zeros(4, 1)
    for _ in range(2):
        fake = torch.tanh(g(z))
        opt_d.zero_grad()
        loss_d = bce(d(real), ones) + bce(d(fake.detach()), zeros)
        loss_d.backward()
        opt_d.step()
        opt_g.zero_grad()
        loss_g = bce(d(fake), ones)
        loss_g.backward()
        opt_g.step()
    return {"g_w": flat(g.weight), "g_b": flat(g.bias), "d_w": flat(d.weight), "d_b": flat(d.bias)}
