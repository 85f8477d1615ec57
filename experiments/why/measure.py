"""Measure the same A1 inference three ways: a Python process that imports torch
(infer.py), and the two burn release binaries (crates/why-infer with
default-features = false, crates/why-infer-simd with default features).

For each: file size (and stripped size), start-up-to-first-result time and peak RSS,
over RUNS fresh processes, the first one discarded. For PyTorch: the installed size of
torch and everything it requires, from the venv's package metadata.

The binaries are the release builds of crates/why-infer and crates/why-infer-simd
(target/release/, found from this file's path). The manifest lists them under `needs`:
the runner builds them before this script runs, and their sources are cache inputs.
"""
import importlib.metadata as md
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNS = 11  # the first run of each is discarded (cold page cache)
TOL = 1e-6

# region: programs
PROGRAMS = {
    "pytorch": [sys.executable, "-I", str(Path(__file__).with_name("infer.py"))],
    "burn": [str(ROOT / "target" / "release" / "why-infer")],
    "burn_default": [str(ROOT / "target" / "release" / "why-infer-simd")],
}
# endregion: programs


# region: run_once
def run_once(cmd):
    """One fresh process: seconds to its first line of output and to its exit, its own
    peak RSS (VmHWM, which it prints itself) and the kernel's ru_maxrss for it."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    first = p.stdout.readline()          # the result line
    t_first = time.perf_counter() - t0
    rest = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage
    t_exit = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    assert p.returncode == 0, (cmd, p.returncode)
    out = json.loads(first + rest)
    # Both in KiB. ru_maxrss also keeps the peak of the pre-exec process (a copy of this
    # script's process), so it can never be below this script's own RSS.
    return t_first, t_exit, out["vm_hwm_kb"] / 1024, usage.ru_maxrss / 1024, out
# endregion: run_once


def stats(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


# region: sizes
def stripped_size(path):
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "stripped"
        subprocess.run(["strip", "-o", str(out), str(path)], check=True)
        return out.stat().st_size


def needed_libs(path):
    """The shared libraries the binary asks the dynamic loader for (ELF NEEDED entries)."""
    dump = subprocess.run(["objdump", "-p", str(path)], check=True, capture_output=True,
                          text=True).stdout
    return [ln.split()[1] for ln in dump.splitlines() if ln.strip().startswith("NEEDED")]


def dist_size(dist):
    total = 0
    for f in dist.files or []:
        p = Path(dist.locate_file(f))
        if p.is_file():
            total += p.stat().st_size
    return total


def closure(name):
    """torch and every installed package it requires, recursively (extras left out)."""
    seen, todo = {}, [name]
    while todo:
        n = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if n in seen:
            continue
        try:
            dist = md.distribution(n)
        except md.PackageNotFoundError:
            continue  # a requirement whose marker does not hold here
        seen[n] = dist
        for req in dist.requires or []:
            if "extra ==" in req:
                continue
            todo.append(re.match(r"[A-Za-z0-9._-]+", req).group(0))
    return seen
# endregion: sizes


def own_rss_mb():
    """This measuring script's own peak RSS (it never imports torch)."""
    with open("/proc/self/status") as f:
        return int(next(ln for ln in f if ln.startswith("VmHWM:")).split()[1]) / 1024


MB = 1e6
results, same, max_diff, needed = {}, {}, {}, {}
for name, cmd in PROGRAMS.items():
    runs = [run_once(cmd) for _ in range(RUNS)][1:]
    results[name] = {
        "first_result_ms": stats([r[0] * 1e3 for r in runs]),
        "exit_ms": stats([r[1] * 1e3 for r in runs]),
        "peak_rss_mb": stats([r[2] for r in runs]),
        "ru_maxrss_mb": stats([r[3] for r in runs]),
    }
    logits = [r[4]["logits"] for r in runs]
    if name == "pytorch":
        ref = logits[0]
    diff = max(abs(a - b) for ls in logits for a, b in zip(ls, ref))
    same[name], max_diff[name] = diff <= TOL, diff

for name in ("burn", "burn_default"):
    exe = Path(PROGRAMS[name][0])
    results[name]["file_mb"] = exe.stat().st_size / MB
    results[name]["stripped_mb"] = stripped_size(exe) / MB
    needed[name] = needed_libs(exe)

deps = closure("torch")
sizes = {n: dist_size(d) for n, d in deps.items()}
site = Path(md.distribution("torch").locate_file(""))
site_total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and not p.is_symlink())
results["pytorch"].update({
    "torch_version": md.version("torch"),
    "env_mb": sum(sizes.values()) / MB,
    "torch_only_mb": sizes["torch"] / MB,
    "nvidia_mb": sum(v for n, v in sizes.items() if n.startswith("nvidia")) / MB,
    "env_packages": len(sizes),
    "site_packages_mb": site_total / MB,
})

print(json.dumps({
    "runs": RUNS - 1,
    "discarded": 1,
    "tol": TOL,
    "same_logits": same,
    "max_abs_diff": max_diff,
    "needed_libs": needed,
    "env_package_names": sorted(sizes),
    "measure": results,
    "own_rss_mb": own_rss_mb(),
    "cores": {"cpu_count": os.cpu_count(), "affinity": len(os.sched_getaffinity(0))},
}, indent=1))
