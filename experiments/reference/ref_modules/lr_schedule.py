"""学习率调度：ref-8-modules/lr_schedule.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def lr_sequence(make_sched, n=12, lr=0.1, momentum=0.0):
    """The lr each of n optimizer steps uses: optimizer.step(), then scheduler.step()."""
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=lr, momentum=momentum)
    sched = make_sched(optim)
    seq = []
    for _ in range(n):
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step()
    return {"lr": seq}


@row
def multistep_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[3, 7], gamma=0.1))


@row
def lambda_lr():
    # Linear warmup for 3 steps, then linear decay to 0 at step 12 (transformers'
    # get_linear_schedule_with_warmup).
    def f(s):
        return s / 3 if s < 3 else max(0.0, (12 - s) / (12 - 3))

    return lr_sequence(lambda o: torch.optim.lr_scheduler.LambdaLR(o, f))


@row
def one_cycle_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.OneCycleLR(
        o, max_lr=0.1, total_steps=20, pct_start=0.25), n=20, momentum=0.9)


@row
def reduce_lr_on_plateau():
    losses = [1.0, 0.9, 0.95, 0.96, 0.8, 0.85, 0.85, 0.79, 0.9, 0.9, 0.9, 0.9]
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(optim, factor=0.5, patience=1)
    seq = []
    for loss in losses:
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step(loss)
    return {"lr": seq}


@row
def cosine_warm_restarts():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=4, T_mult=2, eta_min=0.001))


@row
def sequential_lr():
    def make(o):
        warmup = torch.optim.lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3)
        cosine = torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=9, eta_min=0.001)
        return torch.optim.lr_scheduler.SequentialLR(o, [warmup, cosine], milestones=[3])

    return lr_sequence(make)


@row
def noam_lr():
    d_model, warmup = 16, 4
    return lr_sequence(lambda o: torch.optim.lr_scheduler.LambdaLR(
        o, lambda s: d_model ** -0.5 * min((s + 1) ** -0.5, (s + 1) * warmup ** -1.5)), lr=1.0)
