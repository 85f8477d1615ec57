"""Markdown building blocks every page part uses: fences, the linked PyTorch / burn tabs, table
cells, and compact JSON. Pure text in, text out."""
import html
import json
import re


TAB_LABELS = {"python": "PyTorch", "burn": "burn"}


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


def cell(s) -> str:
    """Text for a Markdown table cell: HTML-escaped, and a "|" cannot split the row."""
    return html.escape(str(s)).replace("|", "&#124;").replace("\n", " ")


def md_text(s: str) -> str:
    """Text that neither HTML nor Markdown will reinterpret (`__init__`, `2*3`, `[x]`)."""
    return s.translate({ord(ch): f"&#{ord(ch)};" for ch in "&<>\"'\\`*_[]{}#|~"})
