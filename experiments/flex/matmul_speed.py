"""Square f32 matmuls of a few sizes on the CPU: a checksum of C, timings, threads.

Prints the same JSON structure as crates/flex-matmul (and flex-matmul-simd).
"""
import json
import os
import statistics
import time

import torch

SIZES = [64, 256, 1024]
REPS = 11


# region: inputs
def inputs(n):
    # Element k (0-based, row-major) of A is sin(k), of B cos(k): f64, rounded to f32 once.
    k = torch.arange(n * n, dtype=torch.float64)
    return torch.sin(k).float().reshape(n, n), torch.cos(k).float().reshape(n, n)
# endregion: inputs


def os_threads():
    return len(os.listdir("/proc/self/task"))


result = {"sizes": SIZES, "c_diag16": {}, "c_sum": {}, "timings": {}}
for n in SIZES:
    a, b = inputs(n)
    # region: timing
    c = a @ b  # warm-up
    times, cpu0, wall0 = [], time.process_time(), time.perf_counter()
    for _ in range(REPS):
        t0 = time.perf_counter()
        c = a @ b
        times.append(time.perf_counter() - t0)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    # endregion: timing
    ms = [t * 1e3 for t in times]
    result["timings"][str(n)] = {"median_ms": statistics.median(ms), "min_ms": min(ms),
                                 "max_ms": max(ms), "reps": REPS}
    # 16 diagonal elements, evenly spaced, and the sum of all of C in f64.
    step = n // 16
    result["c_diag16"][str(n)] = [float(c[i, i]) for i in range(0, n, step)]
    result["c_sum"][str(n)] = c.double().sum().item()

# region: threads
threads = {
    "torch_num_threads": torch.get_num_threads(),
    "os_threads": os_threads(),
    # CPU time of the whole process over wall time, across the timed reps of the largest size.
    "cpu_over_wall": cpu / wall,
}
# endregion: threads
result["threads"] = threads
result["torch_parallel_backend"] = [
    line.split(":", 1)[1].strip() for line in torch.__config__.parallel_info().splitlines()
    if line.startswith("ATen parallel backend")][0]
result["cpu"] = {"torch_cpu_capability": torch.backends.cpu.get_cpu_capability()}
print(json.dumps(result, indent=1))
