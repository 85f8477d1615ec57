"""What a side printed and how the comparison came out, as blocks on a page; the notes for
experiments that need hardware this machine lacks."""
import html
import re

from .. import hardware
from ..errors import BookError
from ..paths import Book
from . import outputs
from .programs import manifest
from .text import TAB_LABELS, compact_json, fence, tabs


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
            "本书的构建在这样的机器上运行时会生成它。\n")


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
    if status in ("panic", "exception", "error", "build_script_error"):
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
