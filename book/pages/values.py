"""One value of a cached output in running text: value(), num(), raw(), claim(), require(),
max_diff(), abs_diffs(). A claim the output does not bear out stops the build."""

import html

from ..errors import BookError
from ..paths import Book
from . import outputs
from .text import md_text


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


def abs_diffs(book: Book, exp_id: str, a: str, b: str) -> list[float]:
    """|a[i] - b[i]| element by element, for two flat lists of numbers of one entry (burn.y
    against python.y_gelu): a page takes min, max or counts over it instead of a loop."""
    xs, ys = (outputs.entry(book, exp_id).field(p) for p in (a, b))
    ok = lambda v: isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)  # noqa: E731
    if not (ok(xs) and ok(ys)) or len(xs) != len(ys) or not xs:
        raise BookError(f"实验 {exp_id} 的 {a} 和 {b} 不是两列一样长的数")
    return [abs(x - y) for x, y in zip(xs, ys)]
