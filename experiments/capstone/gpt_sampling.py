"""Which rule torch.multinomial(probs, 1) draws by. For each seed, the draw is compared with two
rules replayed from the same generator state: the exponential race argmax(p / q), q ~ Exp(1)
(what ATen does for one sample or without replacement), and the inverse CDF of one torch.rand
(what burn's categorical does with its own uniform numbers). p is a fixed softmax, no data.
"""
import json
import math

import torch

SEEDS = 200
# Eight categories, a softmax over 2·sin(k) (computed in f64, rounded to f32 once).
LOGITS = torch.tensor([2.0 * math.sin(k + 1) for k in range(8)], dtype=torch.float64).float()
P = torch.softmax(LOGITS, dim=-1).unsqueeze(0)  # [1, 8], like one row of logits at sampling time


# region: rules
def multinomial(seed):
    torch.manual_seed(seed)
    return torch.multinomial(P, num_samples=1).item()


def exponential_race(seed):
    """argmax(p / q) with q ~ Exp(1), from the same generator state."""
    torch.manual_seed(seed)
    q = torch.empty_like(P).exponential_(1)
    return torch.argmax(P / q, dim=-1).item()


def inverse_cdf(seed):
    """The category where the cumulative probability first reaches one uniform draw."""
    torch.manual_seed(seed)
    u = torch.rand(1, 1)
    return int((torch.cumsum(P, dim=-1) < u).sum().item())
# endregion: rules


def main():
    draws = [multinomial(s) for s in range(SEEDS)]
    race = [exponential_race(s) for s in range(SEEDS)]
    icdf = [inverse_cdf(s) for s in range(SEEDS)]
    print(json.dumps({
        "seeds": SEEDS,
        "p": [float(x) for x in P[0]],
        "draw_eq_exponential_race": sum(a == b for a, b in zip(draws, race)),
        "draw_eq_inverse_cdf": sum(a == b for a, b in zip(draws, icdf)),
        "first_draws": draws[:20],
    }))


if __name__ == "__main__":
    main()
