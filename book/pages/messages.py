"""The literal error messages an experiment's run printed: rustc's error lines, panic texts,
Python exception lines. Taken from the cached outputs, so a page can carry them for search."""
import re

from ..errors import BookError
from ..experiments.manifest import by_id
from ..paths import Book
from . import outputs
from .text import fence

# rustc's own lines, not the summary at the end ("could not compile", "aborting due to").
RUSTC_ERROR = re.compile(r"^error(\[E\d{4}\])?: (?!could not compile|aborting due to)")
# The last line of a Python traceback: "ValueError: ...", "torch.OutOfMemoryError: ...".
PY_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Warning|Interrupt)\b(: .*)?$")
MAX_LINES = 12  # a panic that prints a whole table: the start of it is what people paste


def of_experiment(book: Book, exp_id: str) -> list[str]:
    """Each message once, in the order the run printed them."""
    e = outputs.entry(book, exp_id)
    outcome = e.json("outcome.json")
    found = []
    for side in ("python", "burn"):
        actual = outcome.get(side, {}).get("actual", {})
        status = actual.get("status")
        if status == "compile_error":
            found += [ln.rstrip() for ln in e.read(f"{side}.diagnostics.txt").splitlines()
                      if RUSTC_ERROR.match(ln)]
        elif status == "build_script_error":
            # cargo's error line, then what the build script itself said (its panic).
            text = e.read(f"{side}.stderr.txt")
            found += [ln.rstrip() for ln in text.splitlines() if ln.startswith("error: ")]
            found += [ln.strip() for ln in _after_panic(text)]
        elif status == "panic" and actual.get("panic"):
            lines = [ln.rstrip() for ln in actual["panic"].splitlines() if ln.strip()]
            found.append("\n".join(lines[:MAX_LINES]))
        elif status == "exception" and e.has(f"{side}.stderr.txt"):
            last = [ln.rstrip() for ln in e.read(f"{side}.stderr.txt").splitlines()
                    if PY_EXCEPTION.match(ln)]
            if last:
                found.append(last[-1])
    return list(dict.fromkeys(found))


def _after_panic(text: str) -> list[str]:
    """The line after a build script's "panicked at": its message."""
    lines = text.splitlines()
    return [lines[i + 1] for i, ln in enumerate(lines[:-1]) if "panicked at " in ln]


def of_page(book: Book, page: str) -> list[tuple[str, str]]:
    """(experiment id, message) for every experiment of a page (its `page:` key)."""
    out = []
    for exp in by_id(book).values():
        if exp.page == page and (book.outputs / exp.id / "outcome.json").is_file():
            out += [(exp.id, m) for m in of_experiment(book, exp.id)]
    return out


HEADING = "报错原文"
TITLE_CHARS = 100


def title(msg: str) -> str:
    """A message's first line, cut at a word near TITLE_CHARS (and before a printed "\\n").
    A Python exception's title leaves out its class ("IndexError: "): the class repeats words
    of the message (Index, index), and those repeats outranked a burn panic with the same words."""
    # Debug output prints its newlines as "\\n", and burn-store draws a box around its summary.
    first = re.sub(r"\\n|[\u2500-\u257f]", " ", msg.splitlines()[0])
    first = re.sub(r"\s+", " ", first).strip()
    if PY_EXCEPTION.match(first) and ": " in first:
        first = first.split(": ", 1)[1]
    if len(first) <= TITLE_CHARS:
        return first
    cut = first.rfind(" ", 0, TITLE_CHARS)
    return first[:cut if cut > TITLE_CHARS // 2 else TITLE_CHARS].rstrip(" .,:;") + " …"


def _inline_code(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def block(book: Book, page: str) -> str:
    """Each message under a heading of its own (an H4 in the page's 现象): Material's search
    weighs a title a thousand times its text, so a message pasted from a terminal finds this
    page before any page that only shares some of its words, and each message has a link."""
    found: dict[str, list[str]] = {}
    for exp_id, msg in of_page(book, page):
        found.setdefault(msg, []).append(exp_id)
    if not found:
        raise BookError(f"页面 {page} 的实验没有打印任何报错，用不着 error_messages()")
    parts = [f"### {HEADING}", "",
             "这一页的实验真实打印的报错，原样照录（`$DIR` 代表仓库所在的目录）。"
             "把终端里的报错粘到搜索框里，就能找到这一页。", ""]
    seen: dict[str, int] = {}
    for msg, ids in found.items():
        seen[ids[0]] = seen.get(ids[0], 0) + 1
        anchor = f"err-{ids[0]}" + (f"-{seen[ids[0]]}" if seen[ids[0]] > 1 else "")
        who = "、".join(f"`{i}`" for i in ids)
        parts += [f"#### {_inline_code(title(msg))} {{: #{anchor} }}", "",
                  f"实验 {who}：", "", fence(msg + "\n", "text"), ""]
    return "\n".join(parts)
