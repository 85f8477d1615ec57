"""Run one experiment for real: both sides in a scratch folder, their output normalised into
the entry's files, the outcome of each side and the provenance (versions, features, the CPU
the kernels dispatched on). Comparing the sides is the next stage's (book.checking)."""
import json
import platform
import re
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

from .. import hardware, sources
from ..experiments.manifest import Experiment
from ..paths import Book
from . import normalize
from .sides import Side, build_needs, run_burn, run_python

# Packages whose versions go into provenance (and the version line) when a script imports them.
TRACKED = ("torch", "numpy", "onnx", "onnxscript", "safetensors")
IMPORT_RE = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.M)


def imported(script: Path) -> list[str]:
    """The tracked packages a script imports (a package: any of its modules)."""
    files = sorted(script.glob("*.py")) if script.is_dir() else [script]
    names = {n for f in files for n in IMPORT_RE.findall(f.read_text(encoding="utf-8"))}
    return [p for p in TRACKED if p in names]


@lru_cache(maxsize=None)
def python_packages(python: str) -> dict:
    return hardware.remembered("python-packages", [hardware.python_identity(python), list(TRACKED)],
                               lambda: _python_packages(python))


def _python_packages(python: str) -> dict:
    code = ("import importlib.metadata as m, json\n"
            "v = {}\n"
            f"for p in {TRACKED!r}:\n"
            "    try: v[p] = m.version(p)\n"
            "    except m.PackageNotFoundError: pass\n"
            "print(json.dumps(v))")
    try:
        out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return {}


def _side_files(prefix: str, side: Side, book: Book, volatile_keys: list):
    """Normalised files for one side, the parsed JSON (or None) and its volatile fields."""
    files, vol = {}, {}
    data = normalize.parse_json(side.stdout) if side.stdout.strip() else None
    if isinstance(data, dict):
        for k in volatile_keys:
            if k in data:
                vol[k] = data.pop(k)
        data = normalize.value(data, book.root)
        files[f"{prefix}.json"] = normalize.dump_json(data)
    elif side.stdout.strip():
        files[f"{prefix}.txt"] = normalize.text(side.stdout, book.root)
    if side.stderr.strip():
        name = "diagnostics" if side.status == "compile_error" else "stderr"
        files[f"{prefix}.{name}.txt"] = normalize.text(side.stderr, book.root)
    if side.detail.get("diagnostics", "").strip():
        # Warnings of a build that went through: readers see deprecations as rustc says them.
        files[f"{prefix}.diagnostics.txt"] = normalize.text(side.detail["diagnostics"], book.root)
    return files, data, vol


def _actual(side: Side, book: Book) -> dict:
    a = {"status": side.status}
    for k in ("exception", "codes", "exit_code", "build_script"):
        if side.detail.get(k) is not None:
            a[k] = side.detail[k]
    if side.detail.get("panic") is not None:
        a["panic"] = normalize.text(side.detail["panic"], book.root).rstrip("\n")
    return a


def cpu_provenance(exp: Experiment, book: Book) -> dict:
    """What the kernels dispatch on. Stable across CPU classes unless the manifest lists cpu: fields."""
    here = hardware.cpu()
    prov = {"arch": here["arch"]}
    if exp.cpu:
        # These outputs belong to the CPU's class: its vendor (MKL dispatches on it) and SIMD level.
        prov.update(vendor=here["vendor"], simd=here["simd"])
    if exp.python and exp.pins:
        prov["pins"] = hardware.CPU_PINS
    if exp.python:
        prov["torch_capability"] = hardware.torch_capability(book.python, not exp.pins)
    return prov


def run_experiment(exp: Experiment, book: Book, scratch_root: Path | None = None) -> dict:
    """Run both sides for real. Returns the entry's files, the sides' parsed outputs, the
    outcome (each side's expected and actual ending) and the volatile data."""
    files, outcome, volatile = {}, {}, {"seconds": {}}
    provenance = {"platform": f"{platform.system().lower()}-{platform.machine()}",
                  "cpu": cpu_provenance(exp, book)}
    outputs = {}
    with tempfile.TemporaryDirectory(prefix=f"book-{exp.id}-", dir=scratch_root) as scratch:
        scratch = Path(scratch)
        build_needs(exp, book)
        if exp.python:
            (scratch / "py").mkdir()
            side = run_python(exp, book, scratch / "py")
            f, outputs["python"], vol = _side_files("python", side, book, exp.volatile)
            files.update(f)
            volatile["python"] = vol
            volatile["seconds"]["python"] = side.seconds
            outcome["python"] = {"expected": exp.python["expect"], "actual": _actual(side, book)}
            pk = python_packages(book.python)
            uses = imported(exp.script)
            provenance.update(python=hardware.toolchain(book.python)["python"],
                              **{k: v for k, v in pk.items() if k in uses or k == "torch"})
        if exp.burn:
            (scratch / "burn").mkdir()
            side, build = run_burn(exp, book, scratch / "burn")
            f, outputs["burn"], vol = _side_files("burn", side, book, exp.volatile)
            files.update(f)
            volatile["burn"] = vol
            volatile["seconds"]["burn"] = side.seconds
            outcome["burn"] = {"expected": exp.burn["expect"], "actual": _actual(side, book)}
            burn_sets, flex_sets = build.features.get("burn", []), build.features.get("burn-flex", [])
            expected = (sources.feature_closure(exp.burn["features"], build.versions["burn"])
                        if burn_sets else None)
            # With a build-dependency on burn there are two sets: the binary's is the expected
            # one when nothing leaked; otherwise report the first, and the contract fails.
            compiled = expected if expected in burn_sets else (burn_sets[0] if burn_sets else None)
            if compiled is not None:
                outcome["burn"]["features"] = {"compiled": compiled, "expected": expected}
            provenance.update(
                rustc=hardware.toolchain(book.python)["rustc"],
                profile=exp.burn["profile"],
                burn=build.versions.get("burn"),
                burn_features=compiled,
                flex_features=flex_sets[0] if len(flex_sets) == 1 else flex_sets or None,
                features_requested=exp.burn["features"],
            )
            # Companion crates, when the program uses them (burn-onnx: a build-dependency).
            for extra in ("burn-store", "burn-onnx"):
                if extra in build.versions:
                    provenance[extra.replace("-", "_")] = {
                        "version": build.versions[extra], "features": build.features.get(extra, [])}
    if exp.requires:
        provenance["hardware"] = hardware.describe(exp.requires)
    files["provenance.json"] = normalize.dump_json(provenance)
    return {"files": files, "outputs": outputs, "outcome": outcome, "volatile": volatile}
