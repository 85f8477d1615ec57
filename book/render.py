"""Stage 4: turn cached outputs into Markdown. Pure functions: they read, never run."""
import html
import math
import json
import re
from pathlib import Path

from . import hardware, outputs, sources
from .discover import building, by_id, load
from .errors import BookError
from .paths import Book

TAB_LABELS = {"python": "PyTorch", "burn": "burn"}
REGION_RE = re.compile(r"^\s*(?://|#)\s*(end)?region:\s*(\S+)\s*$")


def fence(text: str, lang: str = "text") -> str:
    """A fenced block that no backtick run inside the text can close."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{lang}\n{body}{ticks}"


def indent(text: str, n: int = 4) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln.strip() else "" for ln in text.split("\n"))


def tabs(items: list[tuple[str, str]]) -> str:
    """Content tabs; the same labels everywhere, so that Material links them."""
    # "===!" opens a new tab set, so that two pairs in a row never merge into one.
    return "\n\n".join(f'==={"!" if i == 0 else ""} "{label}"\n\n{indent(body)}'
                         for i, (label, body) in enumerate(items)) + "\n"


def extract(path: Path, region: str | None, book: Book) -> str:
    """A whole file or one marked region, without the region markers, dedented."""
    if not path.is_file():
        raise BookError(f"代码文件不存在：{path.relative_to(book.root) if path.is_relative_to(book.root) else path}")
    lines = path.read_text(encoding="utf-8").split("\n")
    if region:
        # A region may come in several segments (to skip lines in between): join them.
        picked, inside, segments = [], False, 0
        for ln in lines:
            m = REGION_RE.match(ln)
            if m and m.group(2) == region:
                if bool(m.group(1)) != inside:
                    raise BookError(f"{path.relative_to(book.root)} 里区域 {region!r} 的 region/endregion 没有成对出现")
                inside = not inside
                segments += not inside
                continue
            if inside:
                picked.append(ln)
        if inside or not segments:
            raise BookError(f"{path.relative_to(book.root)} 里没有完整的区域 {region!r}："
                            f"要有一行 `region: {region}` 和一行 `endregion: {region}`")
        lines = picked
    lines = [ln for ln in lines if not REGION_RE.match(ln)]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    widths = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(widths, default=0)
    return "\n".join(ln[cut:] for ln in lines) + "\n"


def manifest(book: Book, exp_id: str):
    if building():  # a site build: every manifest was read once already
        exps = by_id(book)
        if exp_id not in exps:
            raise BookError(f"没有实验 {exp_id!r}（experiments/ 下找不到 {exp_id}.yaml）")
        return exps[exp_id]
    paths = [p for p in book.experiments.rglob(f"{exp_id}.yaml")]
    if len(paths) != 1:
        raise BookError(f"没有实验 {exp_id!r}（experiments/ 下找不到 {exp_id}.yaml）")
    return load(paths[0], book)


def side_source(book: Book, exp_id: str, side: str) -> tuple[Path, str]:
    exp = manifest(book, exp_id)
    if side == "python" and exp.python:
        return exp.script, "python"
    if side == "burn" and exp.burn:
        return exp.crate_dir(book) / "src" / "main.rs", "rust"
    raise BookError(f"实验 {exp_id} 没有 {side} 侧")


def code(book: Book, path: str, region: str | None = None, lang: str | None = None) -> str:
    p = book.root / path
    lang = lang or {".py": "python", ".rs": "rust", ".toml": "toml", ".yaml": "yaml"}.get(p.suffix, "text")
    return fence(extract(p, region, book), lang)


def pair(book: Book, exp_id: str, region: str | None = None, burn_file: str | None = None) -> str:
    """The two programs of an experiment, in linked tabs. burn_file: the burn side's region
    from another file of the experiment (a crate it lists under needs), not its crate's main."""
    items = []
    for side in ("python", "burn"):
        p, lang = side_source(book, exp_id, side)
        if side == "burn" and burn_file:
            p = book.root / burn_file
            allowed = [book.crates / c for c in manifest(book, exp_id).needs]
            if not any(p.is_relative_to(c) for c in allowed):
                raise BookError(f"pair({exp_id!r}, {region!r}, {burn_file!r})：burn_file 要在实验 "
                                f"needs 里的 crate 中（{[c.name for c in allowed]}）")
        items.append((TAB_LABELS[side], fence(extract(p, region, book), lang)))
    return tabs(items)


WRAP = 72


def _scalar(v) -> bool:
    return v is None or isinstance(v, (bool, int, float))


def _emit(v, depth: int) -> str:
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(v, dict) and v:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_emit(x, depth + 1)}"
                 for k, x in v.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(v, list) and v and all(_scalar(x) for x in v):
        # Numbers packed into lines: a 64-number vector is a few lines, not 64.
        words = [json.dumps(x, allow_nan=True) for x in v]
        one = "[" + ", ".join(words) + "]"
        if len(one) + depth <= WRAP:
            return one
        lines, cur = [], ""
        for w in words:
            if cur and len(cur) + len(w) + 3 > WRAP - len(inner):
                lines.append(cur + ",")
                cur = ""
            cur = f"{cur}, {w}" if cur else w
        lines.append(cur)
        return "[\n" + "\n".join(inner + ln for ln in lines) + f"\n{pad}]"
    if isinstance(v, list) and v:
        return "[\n" + ",\n".join(inner + _emit(x, depth + 1) for x in v) + f"\n{pad}]"
    return json.dumps(v, ensure_ascii=False, allow_nan=True)


def compact_json(text: str) -> str:
    """A side's JSON for readers: as stored, but lists of numbers packed into lines."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    return _emit(data, 0) + "\n"


def pitfall_count(book: Book) -> int:
    """How many pages under docs/10-pitfalls are pitfalls (front matter kind: pitfall)."""
    return sum(1 for f in (book.root / "docs" / "10-pitfalls").glob("*.md")
               if re.match(r"---\s*\n(?:.*\n)*?kind:\s*pitfall\s*\n", f.read_text(encoding="utf-8")))


def has_output(book: Book, exp_id: str) -> bool:
    """For pages that show an experiment needing hardware no machine has run it on yet."""
    manifest(book, exp_id)
    return (book.outputs / exp_id / "outcome.json").is_file()


def _never_ran(book: Book, exp_id: str) -> str | None:
    """A notice in place of outputs, only for a `requires:` experiment that has none yet."""
    if (book.outputs / exp_id / "outcome.json").is_file():
        return None
    exp = manifest(book, exp_id)
    if not exp.requires:
        return None  # an ordinary missing output: outputs.entry fails loudly
    need = "、".join(hardware.LABELS[r] for r in exp.requires)
    return (f'!!! warning "还没有输出"\n\n    实验 `{exp_id}` 需要{need}。'
            f"还没有哪台有{need}的机器跑过它，所以这里暂时没有它的输出。"
            "在这样的机器上运行 `make site` 会生成并缓存它。\n")


def requires_note(book: Book, exp_id: str) -> str:
    """Where the outputs of a `requires:` experiment came from, and whether this build reran it."""
    exp = manifest(book, exp_id)
    if not exp.requires:
        raise BookError(f"实验 {exp_id} 没有 requires，用不着 requires_note")
    never = _never_ran(book, exp_id)
    if never:
        return never
    e = outputs.entry(book, exp_id)
    prov = e.json("provenance.json").get("hardware", {})
    where = []
    if "vulkan" in prov:
        v = prov["vulkan"]
        where.append(f"Vulkan 驱动 {', '.join(v.get('icd') or []) or '?'}"
                     f"（mesa-vulkan-drivers {v.get('mesa-vulkan-drivers') or '?'}）")
    if "cuda" in prov:
        where.append(f"GPU {prov['cuda'].get('gpu') or '?'}")
    ran_at = e.json("volatile.json").get("ran_at", "?")
    lack = hardware.missing(exp.requires)
    here = ("本次构建的机器没有" + "、".join(hardware.LABELS[r] for r in lack) + "，沿用的是缓存的输出。"
            if lack else "本次构建的机器有它需要的硬件，输出是最新的运行。")
    return (f'!!! info "这个实验需要 {"、".join(hardware.LABELS[r] for r in exp.requires)}"\n\n'
            f"    输出来自一台有{html.escape('、'.join(where))}的机器，运行于 {html.escape(ran_at)}。{here}\n")


def side_output(book: Book, exp_id: str, side: str) -> str:
    never = _never_ran(book, exp_id)
    if never:
        return never
    e = outputs.entry(book, exp_id)
    outcome = e.json("outcome.json")
    if side not in outcome:
        raise BookError(f"实验 {exp_id} 没有 {side} 侧")
    status = outcome[side]["actual"]["status"]
    if status == "compile_error":
        return fence(e.read(f"{side}.diagnostics.txt"), "text")
    if status in ("panic", "exception", "error"):
        parts = []
        if e.has(f"{side}.txt") or e.has(f"{side}.json"):
            parts.append(e.side_output(side)[0])
        parts.append(e.read(f"{side}.stderr.txt"))
        return fence("".join(parts), "text")
    if status == "timeout":
        parts = [e.side_output(side)[0] if e.has(f"{side}.txt") or e.has(f"{side}.json") else ""]
        if e.has(f"{side}.stderr.txt"):
            parts.append(e.read(f"{side}.stderr.txt"))
        return fence("".join(parts) or "（超时前没有任何输出）\n", "text")
    text, lang = e.side_output(side)
    return fence(compact_json(text) if lang == "json" else text, lang)


def outputs_tabs(book: Book, exp_id: str) -> str:
    never = _never_ran(book, exp_id)
    if never:
        return never
    e = outputs.entry(book, exp_id)
    outcome = e.json("outcome.json")
    items = [(TAB_LABELS[s], side_output(book, exp_id, s)) for s in ("python", "burn") if s in outcome]
    return tabs(items)


def compare_output(book: Book, exp_id: str, mutated: bool = False) -> str:
    never = _never_ran(book, exp_id)
    if never:
        return never
    e = outputs.entry(book, exp_id)
    outcome = e.json("outcome.json")
    key = "mutation" if mutated else "compare"
    if key not in outcome:
        raise BookError(f"实验 {exp_id} 没有{'变异检查' if mutated else '比较'}")
    text = e.read("mutation.txt" if mutated else "compare.txt")
    code_ = outcome[key]["exit_code"]
    return fence(f"{text.rstrip()}\n$ echo $?\n{code_}\n", "text")


def compare_table(book: Book, exp_id: str) -> str:
    never = _never_ran(book, exp_id)
    if never:
        return never
    e = outputs.entry(book, exp_id)
    report = e.json("compare.json")
    own = any("tol" in r for r in report["fields"])
    head = "| 字段 | 个数 | 最大 \\|diff\\| | 最大 ulp |" + (" 容差 |" if own else "")
    rows = [head, "|---|---:|---:|---:|" + ("---:|" if own else "")]
    for r in report["fields"]:
        cells = f"| `{r['field']}` | {r['n']} | {r['max_diff']:.2e} | {r['max_ulps']} |"
        rows.append(cells + (f" {r.get('tol', report['tol']):g} |" if own else ""))
    rows.append(f"| **最大** | | **{report['worst']:.2e}**（`{report['worst_field']}`） | |"
                + (" |" if own else ""))
    verdict = "OK" if report["ok"] else "MISMATCH"
    tol_text = f"其余字段容差 {report['tol']:g}" if own else f"容差 {report['tol']:g}"
    return "\n".join(rows) + f"\n\n{tol_text}，结论 **{verdict}**。\n"


def value(book: Book, exp_id: str, path: str, fmt: str | None = None) -> str:
    v = outputs.entry(book, exp_id).field(path)
    if fmt:
        try:
            return html.escape(format(v, fmt))
        except (TypeError, ValueError):
            raise BookError(f"实验 {exp_id} 的 {path} = {v!r} 不能按格式 {fmt!r} 输出") from None
    if isinstance(v, bool):
        return f"<code>{str(v).lower()}</code>"
    if isinstance(v, list):
        return f"<code>{html.escape(', '.join(map(str, v)))}</code>"
    if isinstance(v, dict):
        raise BookError(f"实验 {exp_id} 的 {path} 是一个映射，请指到具体字段")
    return md_text(repr(v) if isinstance(v, float) else str(v))


def cell(s) -> str:
    """Text for a Markdown table cell: HTML-escaped, and a "|" cannot split the row."""
    return html.escape(str(s)).replace("|", "&#124;").replace("\n", " ")


def md_text(s: str) -> str:
    """Text that neither HTML nor Markdown will reinterpret (`__init__`, `2*3`, `[x]`)."""
    return s.translate({ord(ch): f"&#{ord(ch)};" for ch in "&<>\"'\\`*_[]{}#|~"})


def claim(book: Book, exp_id: str, path: str, expected, fmt: str | None = None) -> str:
    """Render a value the prose relies on, and stop the build the day it stops holding."""
    v = outputs.entry(book, exp_id).field(path)
    if type(v) is not type(expected) or v != expected:
        raise BookError(f"正文声称实验 {exp_id} 的 {path} 是 {expected!r}，实际是 {v!r}：改正文或查实验")
    return value(book, exp_id, path, fmt)


def require(book: Book, ok, what: str) -> str:
    """A fact the prose computes from several outputs: stop the build the day it stops holding."""
    if not ok:
        raise BookError(f"正文依赖的事实不再成立：{what}；改正文或查实验")
    return ""


def raw(book: Book, exp_id: str, path: str):
    """A value as it is stored, for logic in a page: {% if raw(a, "provenance.cpu.simd") == "AVX2" %}."""
    return outputs.entry(book, exp_id).field(path)


def num(book: Book, exp_id: str, path: str):
    """The raw value, for arithmetic in a page: {{ "%.1e" | format(num(a, p) - num(b, q)) }}."""
    v = outputs.entry(book, exp_id).field(path)
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise BookError(f"实验 {exp_id} 的 {path} 不是数：{v!r}")
    return v


def max_diff(book: Book, exp_id: str, field: str) -> float:
    """The comparison's largest |diff| over a field and everything under it ("loss.epoch2"
    covers loss.epoch2.step21 ...), as compare.json recorded it."""
    fields = outputs.entry(book, exp_id).json("compare.json").get("fields", [])
    diffs = [f["max_diff"] for f in fields
             if (f["field"] == field or f["field"].startswith(field + ".")) and f.get("max_diff") is not None]
    if not diffs:
        raise BookError(f"实验 {exp_id} 的比较里没有字段 {field!r}")
    return max(diffs)


PLOT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]


def nice_ticks(lo: float, hi: float, most: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 × 10^k apart) that cover [lo, hi]."""
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / (most - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [round(k * step, 12) for k in range(first, last + 1)]


def _in_key_order(ys):
    """{"step01": .., "step02": ..} in key order; nested ({"epoch1": {"step01": ..}}) one
    mapping after the other."""
    if not isinstance(ys, dict):
        return ys
    out = []
    for k in sorted(ys):
        v = _in_key_order(ys[k])
        out += v if isinstance(v, list) else [v]
    return out


def line_plot(book: Book, title: str, series: list, x_label: str = "", y_label: str = "") -> str:
    """An inline SVG line plot of cached outputs. series: [[label, exp_id, path], ...], each
    path naming a list of numbers, or a mapping read in key order (y at x = 1, 2, ...).
    Drawn from the data, never by hand."""
    lines = []
    for item in series:
        if not isinstance(item, (list, tuple)) or len(item) != 3:
            raise BookError(f"line_plot 的每条线写成 [标签, 实验 id, 字段路径]，得到 {item!r}")
        label, exp_id, path = item
        ys = _in_key_order(outputs.entry(book, exp_id).field(path))
        if not isinstance(ys, list) or not ys or not all(
                isinstance(y, (int, float)) and not isinstance(y, bool) for y in ys):
            raise BookError(f"实验 {exp_id} 的 {path} 不是一列数，画不了线")
        lines.append((str(label), [float(y) for y in ys]))
    # A narrow viewBox: drawn 360 px wide on a phone, its 13-unit text is still 11.7 px.
    rows = (len(lines) + 1) // 2  # the legend: two entries a row, below the axes
    w, left, right, top, bottom = 400, 52, 12, 26, 40 + 18 * rows
    h = 200 + bottom
    n = max(len(ys) for _, ys in lines)
    ticks = nice_ticks(min(min(ys) for _, ys in lines), max(max(ys) for _, ys in lines))
    lo, hi = ticks[0], ticks[-1]

    def px(i):
        return left + (w - left - right) * (i / max(n - 1, 1))

    def py(y):
        return top + (h - top - bottom) * (1 - (y - lo) / (hi - lo))
    out = [f'<svg class="plot" viewBox="0 0 {w} {h}" role="img" xmlns="http://www.w3.org/2000/svg">',
           f"<title>{html.escape(title)}</title>",
           f'<text x="{w / 2}" y="16" text-anchor="middle" font-size="14">{html.escape(title)}</text>',
           f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="currentColor"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="currentColor"/>']
    for y in ticks:
        out.append(f'<text x="{left - 5}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="13">{y:g}</text>')
    for i in sorted({0, (n - 1) // 2, n - 1}):
        out.append(f'<text x="{px(i):.1f}" y="{h - bottom + 15}" text-anchor="middle" font-size="13">{i + 1}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - bottom + 31}" text-anchor="middle" font-size="13">{html.escape(x_label)}</text>')
    out.append(f'<text x="13" y="{(top + h - bottom) / 2}" text-anchor="middle" font-size="13" '
               f'transform="rotate(-90 13 {(top + h - bottom) / 2})">{html.escape(y_label)}</text>')
    for k, (label, ys) in enumerate(lines):
        colour = PLOT_COLOURS[k % len(PLOT_COLOURS)]
        pts = " ".join(f"{px(i):.1f},{py(y):.1f}" for i, y in enumerate(ys))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
        lx, ly = left + (k % 2) * (w - left - right) / 2, h - bottom + 48 + 18 * (k // 2)
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{lx + 23}" y="{ly + 4}" font-size="13">{html.escape(label)}</text>')
    out.append("</svg>")
    # A raw HTML block: one line, blank lines around, so Markdown leaves it alone.
    return "\n" + "".join(out) + "\n"


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
