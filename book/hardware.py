"""What this machine is and offers: the toolchain, the CPU (and the pins that make PyTorch's
kernels the same on every class), and the hardware experiments may need (a Vulkan driver, an
NVIDIA GPU).

An experiment that declares `requires: [...]` runs only where all of it is present; elsewhere
the build keeps its committed output and says so. BOOK_HARDWARE="vulkan,cuda" (or "")
overrides the detection, for tests and for forcing a skip.
"""
import glob
import os
import subprocess
from functools import lru_cache

KNOWN = ("vulkan", "cuda")
ICD_DIRS = ("/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d")
LABELS = {"vulkan": "Vulkan 驱动", "cuda": "NVIDIA GPU（CUDA）"}


def _out(cmd) -> str | None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


@lru_cache(maxsize=None)
def toolchain(python: str) -> dict:
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "missing"
    return {
        "rustc": out(["rustc", "-V"]).removeprefix("rustc "),
        "cargo": out(["cargo", "-V"]).removeprefix("cargo "),
        "python": out([python, "-c", "import platform; print(platform.python_version())"]),
    }



def vulkan_icds() -> list[str]:
    return sorted(os.path.basename(p) for d in ICD_DIRS for p in glob.glob(f"{d}/*.json"))


@lru_cache(maxsize=None)
def _detected(req: str) -> bool:
    if req == "vulkan":
        return bool(vulkan_icds())
    if req == "cuda":
        return bool(_out(["nvidia-smi", "-L"]))
    return False


def available(req: str) -> bool:
    forced = os.environ.get("BOOK_HARDWARE")
    if forced is not None:
        return req in {x.strip() for x in forced.split(",") if x.strip()}
    return _detected(req)


def missing(requires: list[str]) -> list[str]:
    return [r for r in requires if not available(r)]


def describe(requires: list[str]) -> dict:
    """Provenance: the driver each requirement ran on."""
    info = {}
    if "vulkan" in requires:
        info["vulkan"] = {
            "icd": vulkan_icds(),
            "mesa-vulkan-drivers": _out(["dpkg-query", "-W", "-f", "${Version}", "mesa-vulkan-drivers"]),
        }
    if "cuda" in requires:
        info["cuda"] = {"gpu": _out(["nvidia-smi", "--query-gpu=name,driver_version",
                                     "--format=csv,noheader"])}
    return info


# --- The CPU --------------------------------------------------------------------------------
# What dispatches on the instruction set at run time, pinned for every experiment whose page is
# not about the CPU, so that an AVX2-only and an AVX-512 machine print the same bits. Measured:
# ATen's vector kernels (lerp in Adam) and MKL (sgemm in Linear, vsSqrt behind torch.sqrt) give
# other last bits per class; COMPATIBLE is MKL's one branch that is the same on every x86 CPU.
# burn has no such switch: gemm and macerator detect the CPU themselves (see docs, flex page).
CPU_PINS = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "COMPATIBLE", "ONEDNN_MAX_CPU_ISA": "AVX2"}


def _cpuinfo() -> dict:
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor is enough
                k, _, v = line.partition(":")
                info[k.strip()] = v.strip()
    except OSError:
        pass
    return info


def simd_level(flags: set[str], arch: str) -> str:
    """The widest vector level the CPU offers, as burn's kernels pick it (gemm, macerator)."""
    if arch in ("x86_64", "amd64", "i686"):
        if {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"} <= flags:
            return "AVX-512"
        if {"avx2", "fma"} <= flags:
            return "AVX2"
        if "sse4_2" in flags:
            return "SSE4.2"
        return "SSE2"
    if arch in ("aarch64", "arm64"):
        return "NEON"
    return "scalar"


@lru_cache(maxsize=None)
def cpu() -> dict:
    """This machine's CPU: architecture, model, vendor, SIMD level (BOOK_CPU_LEVEL overrides it, for tests)."""
    import platform
    info = _cpuinfo()
    arch = platform.machine()
    flags = set((info.get("flags") or info.get("Features") or "").split())
    return {"arch": arch,
            "model": info.get("model name") or info.get("CPU part") or "unknown",
            "vendor": info.get("vendor_id") or info.get("CPU implementer") or "unknown",
            "simd": os.environ.get("BOOK_CPU_LEVEL") or simd_level(flags, arch)}


def cpu_class(c: dict) -> str | None:
    """"AuthenticAMD AVX2": what a cpu: field's last bits follow (MKL dispatches on the vendor)."""
    return f"{c['vendor']} {c['simd']}" if c.get("vendor") and c.get("simd") else None


def cpu_env(native: bool) -> dict:
    """Environment for a run: the pins, unless the experiment's point is the CPU."""
    return {} if native else dict(CPU_PINS)


def remembered(name: str, key, compute):
    """A fact about this machine that costs a process to learn (torch's import), kept in
    target/.book-machine/ under a key that changes with whatever it depends on."""
    import hashlib
    import json
    from .paths import ROOT, write_atomic
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:20]
    path = ROOT / "target" / ".book-machine" / f"{name}-{digest}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        # Truncated, garbage or another key's: learnt again, never trusted.
        if data["key"] == json.loads(json.dumps(key, default=str)):
            return data["value"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    value = compute()
    try:
        write_atomic(path, json.dumps({"key": key, "value": value}, default=str))
    except OSError:
        pass
    return value


def _stamp(path: str):
    try:
        st = os.stat(path)
        return [st.st_size, st.st_mtime_ns]
    except OSError:
        return None


def python_identity(python: str) -> list:
    """What a Python's installed packages hang on: its venv's stamp (make rewrites it on
    every install) and its site-packages' directory."""
    venv = os.path.dirname(os.path.dirname(python))
    sites = sorted(glob.glob(os.path.join(venv, "lib", "python*", "site-packages")))
    return [python, _stamp(os.path.join(venv, ".stamp"))] + [[p, _stamp(p)] for p in sites]


@lru_cache(maxsize=None)
def torch_capability(python: str, native: bool) -> str | None:
    """The vector level ATen really dispatches on under these settings (torch's own answer)."""
    key = [python_identity(python), native, cpu(), sorted(cpu_env(native).items()), _cpuinfo().get("flags")]
    return remembered("torch-capability", key, lambda: _torch_capability(python, native))


def _torch_capability(python: str, native: bool) -> str | None:
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ} | cpu_env(native)
    try:
        p = subprocess.run([python, "-I", "-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"],
                           capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() or None if p.returncode == 0 else None
