"""line_plot(): an inline SVG line chart drawn from cached outputs."""
import math

import html

from ..errors import BookError
from ..paths import Book
from . import outputs


# Okabe & Ito's colour-blind-safe palette (blue, vermillion, bluish green, reddish purple, orange,
# sky blue: no red against green), and a dash pattern per line, so that two lines differ without
# colour too and one drawn over an equal one still shows both.
PLOT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
PLOT_DASHES = ["", "7 4", "2 3", "10 3 2 3", "4 2 1 2", "12 4"]


# A legend entry's line sample and the gap after it, in viewBox units.
KEY = 33


def _text_width(text: str) -> float:
    """About how wide a label is at font-size 13: a CJK character is square, the rest narrower."""
    return sum(13 if ord(c) > 0x2e80 else 7.5 for c in text)


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
    w, left, right, top = 400, 52, 12, 26
    # The legend, below the axes: two entries a row while every label fits half the width.
    cols = 2 if max(_text_width(label) for label, _ in lines) + KEY <= (w - left - right) / 2 else 1
    rows = -(-len(lines) // cols)
    bottom = 40 + 18 * rows
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
        dash = PLOT_DASHES[k % len(PLOT_DASHES)]
        style = f' stroke="{colour}"' + (f' stroke-dasharray="{dash}"' if dash else "")
        pts = " ".join(f"{px(i):.1f},{py(y):.1f}" for i, y in enumerate(ys))
        out.append(f'<polyline fill="none"{style} stroke-width="2" points="{pts}"/>')
        # The key's sample is long enough to show its line's dash pattern.
        lx, ly = left + (k % cols) * (w - left - right) / 2, h - bottom + 48 + 18 * (k // cols)
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + KEY - 5}" y2="{ly}"{style} stroke-width="3"/>')
        out.append(f'<text x="{lx + KEY}" y="{ly + 4}" font-size="13">{html.escape(label)}</text>')
    out.append("</svg>")
    # A raw HTML block: one line, blank lines around, so Markdown leaves it alone.
    return "\n" + "".join(out) + "\n"
