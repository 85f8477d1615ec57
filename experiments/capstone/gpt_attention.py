"""Causal attention two ways, as gpt.py's model could write it: F.scaled_dot_product_attention
with is_causal=True, and the explicit tril mask with masked_fill(-inf) and softmax. The same
inputs on both sides (a fixed formula, no RNG). Then the case of generation with a cache: the
last Q_CACHE queries against all the keys, where is_causal's mask is aligned at the top left
(PyTorch's documented rule) and the right mask is aligned at the bottom right. Last, the time of
each way on the training shape of gpt.py (forward only, the median of REPS runs).
"""
import json
import statistics
import time

import torch
import torch.nn.functional as F

B, H, T, D = 2, 4, 16, 16
Q_CACHE = 4
SPEED_SHAPE, REPS = (16, 4, 32, 16), 200


def inputs(shape, salt):
    """Values in [-0.5, 0.5) from integer arithmetic, exact in f32 on both sides."""
    n = torch.arange(shape[0] * shape[1] * shape[2] * shape[3], dtype=torch.int64)
    return (((n * 37 + salt) % 97).to(torch.float64) / 97 - 0.5).to(torch.float32).view(shape)


# region: both_ways
def sdpa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def explicit(q, k, v):
    """The mask aligned at the bottom right: query i (of L) sees keys up to i + S - L."""
    L, S = q.shape[-2], k.shape[-2]
    att = (q @ k.transpose(-2, -1)) * (1.0 / q.shape[-1] ** 0.5)
    mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)
    att = att.masked_fill(~mask, float("-inf"))
    return F.softmax(att, dim=-1) @ v
# endregion: both_ways


def median_seconds(fn, q, k, v):
    for _ in range(10):
        fn(q, k, v)
    times = []
    for _ in range(REPS):
        t = time.perf_counter()
        fn(q, k, v)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    q, k, v = (inputs((B, H, T, D), s) for s in (11, 23, 5))
    full = sdpa(q, k, v)
    # region: cache
    qc = q[:, :, -Q_CACHE:]  # the last Q_CACHE positions ask; every key is in the cache
    cache_is_causal = sdpa(qc, k, v)
    cache_bottom_right = explicit(qc, k, v)
    # endregion: cache
    rows = full[:, :, -Q_CACHE:]
    sq, sk, sv = (inputs(SPEED_SHAPE, s) for s in (11, 23, 5))
    print(json.dumps({
        "shape": [B, H, T, D],
        "q_cache": Q_CACHE,
        "full_sdpa": full.flatten().tolist(),
        "full_explicit": explicit(q, k, v).flatten().tolist(),
        "cache_bottom_right": cache_bottom_right.flatten().tolist(),
        "cache_is_causal": cache_is_causal.flatten().tolist(),
        "is_causal_cache_equals_full_rows": torch.allclose(cache_is_causal, rows, atol=1e-6),
        "bottom_right_equals_full_rows": torch.allclose(cache_bottom_right, rows, atol=1e-6),
        "is_causal_first_row_keys": int(torch.ones(Q_CACHE, T).tril().bool()[0].sum()),
        "seconds": {"shape": list(SPEED_SHAPE),
                    "sdpa": median_seconds(sdpa, sq, sk, sv),
                    "explicit": median_seconds(explicit, sq, sk, sv)},
    }))


if __name__ == "__main__":
    with torch.no_grad():
        main()
