"""The version line under a page's outputs (which PyTorch, burn, CPU made them) and links into
burn's source at the version Cargo.lock resolved."""
import html

from .. import sources
from ..errors import BookError
from ..paths import Book
from . import outputs


def version_line(book: Book, *exp_ids: str) -> str:
    if not exp_ids:
        raise BookError("version_line 至少要一个实验 id")
    provs = [(i, outputs.entry(book, i).json("provenance.json")) for i in exp_ids]

    def one(key):
        vals = sorted({str(p[key]) for _, p in provs if p.get(key)})
        return " / ".join(vals) if vals else None

    parts = []
    if one("torch"):
        parts.append(f"PyTorch {one('torch')}（CPU）")
    for extra, name in (("onnx", "onnx"), ("onnxscript", "onnxscript"), ("safetensors", "safetensors")):
        if one(extra):
            parts.append(f"{name} {one(extra)}")
    if one("burn"):
        feats = []
        for _, p in provs:
            if p.get("features_requested") is not None:
                f = "[" + ", ".join(p["features_requested"]) + "]"
                if f not in feats:
                    feats.append(f)
        backends = []
        for _, p in provs:
            fr = p.get("features_requested") or []
            b = ("wgpu（Vulkan）" if "vulkan" in fr else "wgpu" if "wgpu" in fr
                 else "cuda" if "cuda" in fr else "Device::flex()")
            if fr and b not in backends:
                backends.append(b)
        parts.append(f"burn {one('burn')}（{' / '.join(backends)}，{one('profile')}；features "
                     + " 或 ".join(feats) + "）")
        drivers = sorted({d for _, p in provs for d in p.get("hardware", {}).get("vulkan", {}).get("icd", [])})
        if drivers:
            mesa = one_nested(provs, "vulkan", "mesa-vulkan-drivers")
            parts.append(f"Vulkan {', '.join(drivers)}" + (f"（mesa {mesa}）" if mesa else ""))
        for extra in ("burn_store", "burn_onnx"):
            found = sorted({p[extra]["version"] for _, p in provs if p.get(extra)})
            if found:
                parts.append(f"{extra.replace('_', '-')} {' / '.join(found)}")
        parts.append(f"rustc {one('rustc').split(' ')[0]}")
    if one("python"):
        parts.append(f"Python {one('python')}")
    parts.append(one("platform"))
    parts.append(cpu_text(book, exp_ids, [p for _, p in provs]))
    body = html.escape(" · ".join(p for p in parts if p))
    return f'<p class="version-line">版本：{body}</p>\n'


def cpu_text(book: Book, exp_ids, provs) -> str:
    """The CPU the outputs were made on, and what the kernels dispatched on there."""
    entries = [outputs.entry(book, i) for i in exp_ids]
    models = sorted({str(m) for e in entries if e.has("volatile.json")
                     for m in [e.json("volatile.json").get("machine", {}).get("model")] if m})
    cpus = [p.get("cpu", {}) for p in provs]
    classes = sorted({c["simd"] for c in cpus if c.get("simd")})
    pinned = [c for c in cpus if c.get("pins")]
    caps = sorted({c.get("torch_capability") for c in pinned if c.get("torch_capability")})
    bits = []
    if classes:
        bits.append(f"SIMD {' / '.join(classes)}，有的数随 CPU 而变")
    if pinned:
        bits.append("PyTorch 的 CPU 内核固定在 " + (" / ".join(caps) or "?")
                    + "（MKL_CBWR=" + pinned[0]["pins"].get("MKL_CBWR", "?") + "）")
    model = " / ".join(models) or "CPU 型号未记录"
    return f"CPU {model}" + (f"（{'；'.join(bits)}）" if bits else "")


def one_nested(provs, group, key):
    vals = sorted({str(p.get("hardware", {}).get(group, {}).get(key)) for _, p in provs
                   if p.get("hardware", {}).get(group, {}).get(key)})
    return " / ".join(vals) or None


def src(book: Book, path: str, symbol: str, text: str | None = None) -> str:
    s = sources.link(book, path, symbol)
    label = text or symbol
    return f"[`{label}`]({s['url']} \"{s['repo_path']} L{s['start']}–L{s['end']}\")"
