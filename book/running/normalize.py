"""Make outputs stable for diffing: no absolute paths, addresses, thread ids or dates."""
import json
import os
import re
import sys
import sysconfig
from pathlib import Path

# 9+ hex digits: pointers, not f32 bit patterns such as 0x3f800000.
ADDR_RE = re.compile(r"\b0x[0-9a-fA-F]{9,}\b")
THREAD_RE = re.compile(r"(thread '[^']*') \(\d+\)")
DATE_RE = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
# glog / torch logging prefix: "W1129 15:33:37.043000 1369 path.py:107] ..." (date, time, pid).
GLOG_RE = re.compile(r"^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+ +\d+ ", re.M)
REGISTRY_RE = re.compile(r"[^\s\"'`(]*/registry/src/[^/\s]+/")
# cargo's per-checkout metadata hash in build paths (target/release/build/<crate>-<16 hex>/out,
# also under an offline build's own target/offline/).
CARGO_HASH_RE = re.compile(r"(/target/(?:offline/)?(?:release|debug)/(?:build|deps|\.fingerprint)/[A-Za-z0-9_-]+?)-[0-9a-f]{16}\b")
CARGO_STATUS_RE = re.compile(r"^\s*(Compiling|Finished|Running|Blocking|Updating|Locking|Downloaded?)\b")


def _replacements(root: Path):
    home = str(Path.home())
    pairs = [
        (str(root / ".venv"), "$VENV"),
        # A venv reached through a link (make bench's clones share the checkout's) prints its
        # module paths by the target's name.
        (str((root / ".venv").resolve()), "$VENV"),
        (str(root), "$DIR"),
        (sysconfig.get_paths()["stdlib"], "$PYTHON"),
        (sys.base_prefix, "$PYTHON"),
        (os.environ.get("CARGO_HOME", home + "/.cargo"), "$CARGO_HOME"),
        (home, "$HOME"),
    ]
    # Longest first, so that $VENV wins over $DIR.
    return sorted(((a, b) for a, b in pairs if a and a != "/"), key=lambda p: -len(p[0]))


def paths(s: str, root: Path) -> str:
    """Machine- and checkout-specific paths, in any text (also strings inside JSON)."""
    s = REGISTRY_RE.sub("$CARGO/", s)
    for a, b in _replacements(root):
        s = s.replace(a, b)
    return CARGO_HASH_RE.sub(r"\1-<hash>", s)


def value(v, root: Path):
    """paths() applied to every string of a parsed JSON value."""
    if isinstance(v, str):
        return paths(v, root)
    if isinstance(v, list):
        return [value(x, root) for x in v]
    if isinstance(v, dict):
        return {k: value(x, root) for k, x in v.items()}
    return v


def text(s: str, root: Path) -> str:
    s = paths(s.replace("\r\n", "\n"), root)
    s = GLOG_RE.sub(r"\1<date> <pid> ", s)
    s = THREAD_RE.sub(r"\1", s)
    s = ADDR_RE.sub("0x<addr>", s)
    s = DATE_RE.sub("<date>", s)
    lines = [ln.rstrip() for ln in s.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def drop_cargo_status(s: str) -> str:
    return "\n".join(ln for ln in s.split("\n") if not CARGO_STATUS_RE.match(ln))


def dump_json(obj) -> str:
    """Sorted keys, one indent, floats in Python's shortest round-trip repr."""
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=True) + "\n"


def parse_json(s: str):
    try:
        return json.loads(s)
    except (ValueError, TypeError):
        return None
