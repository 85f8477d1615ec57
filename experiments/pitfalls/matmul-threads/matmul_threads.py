"""Square f32 matmuls (256 to 2048) on the CPU, timed with PyTorch's default thread count
and again with one thread; a checksum of C to compare with burn.

Prints the same JSON structure as crates/p-matmul-threads-naive and -fix.
"""
import json
import os
import statistics
import time

import torch

SIZES = [256, 512, 1024, 2048]
REPS = 11


def inputs(n):
    # Element k (0-based, row-major) of A is sin(k), of B cos(k): f64, rounded to f32 once.
    k = torch.arange(n * n, dtype=torch.float64)
    return torch.sin(k).float().reshape(n, n), torch.cos(k).float().reshape(n, n)


# region: timing
def time_matmul(a, b):
    """Median, fastest and slowest of REPS timed matmuls (ms), after one warm-up."""
    c = a @ b  # warm-up
    ms = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for _ in range(REPS):
        t0 = time.perf_counter()
        c = a @ b
        ms.append((time.perf_counter() - t0) * 1e3)
    # CPU time of all threads over wall time: how many cores were busy on average.
    busy = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    return c, {"median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms),
               "cpu_over_wall": busy}
# endregion: timing


# region: threads
default_threads = torch.get_num_threads()  # PyTorch's default: one per core
# endregion: threads

checks = {"c_diag16": {}, "c_sum": {}}
timings = {"default": {}, "one_thread": {}}
for n in SIZES:
    a, b = inputs(n)
    # region: loop
    torch.set_num_threads(default_threads)
    c, timings["default"][str(n)] = time_matmul(a, b)
    torch.set_num_threads(1)
    _, timings["one_thread"][str(n)] = time_matmul(a, b)
    # endregion: loop
    step = n // 16
    checks["c_diag16"][str(n)] = [float(c[i, i]) for i in range(0, n, step)]
    checks["c_sum"][str(n)] = c.double().sum().item()
torch.set_num_threads(default_threads)

print(json.dumps({
    "sizes": SIZES,
    "reps": REPS,
    **checks,
    "threads": {"torch_num_threads": default_threads, "cpu_count": os.cpu_count()},
    "timings": timings,
}, indent=1))
