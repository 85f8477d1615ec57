"""学习率调度：ref-4-training/lr_schedule.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def lr_sequence(make_sched, n=12, lr=0.1):
    """The lr each of n optimizer steps uses: optimizer.step(), then scheduler.step()."""
    p = nn.Parameter(torch.zeros(1))
    optim = torch.optim.SGD([p], lr=lr)
    sched = make_sched(optim)
    seq = []
    for _ in range(n):
        seq.append(optim.param_groups[0]["lr"])
        optim.step()
        sched.step()
    return {"lr": seq}


@row
def step_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3))


@row
def cosine_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(
        o, T_max=10, eta_min=0.001))


@row
def linear_warmup_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.LinearLR(
        o, start_factor=0.1, end_factor=1.0, total_iters=5))


@row
def exponential_lr():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))


@row
def scheduler_lr_above_one():
    # A base lr of 2.0 for a cosine schedule: accepted?
    try:
        seq = lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10),
                          n=1, lr=2.0)
        return {"accepted": seq["lr"][0] == 2.0}
    except ValueError:
        return {"accepted": False}


@row
def cosine_lr_above_one():
    return lr_sequence(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10), lr=2.0)
