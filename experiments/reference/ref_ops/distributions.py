"""概率分布：ref-7-ops/distributions.yaml 的行，每行一个函数。"""
from torch.distributions import Categorical

from harness import *  # noqa: F401,F403

ACTIONS = [2, 0, 1, 2]
ONE_HOT_PROBS = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def policy_logits():
    return leaf(data(4, 3) * 4)


@row
def categorical_log_prob():
    logits = policy_logits()
    return backward(Categorical(logits=logits).log_prob(torch.tensor(ACTIONS)), dx=logits)


@row
def categorical_entropy():
    logits = policy_logits()
    return backward(Categorical(logits=logits).entropy(), dx=logits)


def sample_row():
    torch.manual_seed(0)
    fixed = Categorical(torch.tensor(ONE_HOT_PROBS)).sample((4,))
    s = Categorical(torch.tensor([0.2, 0.5, 0.3])).sample((20000,))
    return {"fixed": vals(fixed), "shape": list(fixed.shape),
            "freq": [float((s == c).double().mean()) for c in range(3)]}


@row
def categorical_sample_naive():
    return sample_row()


@row
def categorical_sample():
    return sample_row()
