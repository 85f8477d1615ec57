"""What this machine offers to experiments that need hardware (a Vulkan driver, an NVIDIA GPU).

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
