"""The programs on a page: code() shows a file (or a region of it), pair() an experiment's two
sides in the linked tabs. They read the committed sources, never run them."""
import re
from pathlib import Path

from ..errors import BookError
from ..experiments.manifest import building, by_id, load
from ..paths import Book
from .text import TAB_LABELS, fence, tabs


REGION_RE = re.compile(r"^\s*(?://|#)\s*(end)?region:\s*(\S+)\s*$")


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
    paths = [p for p in book.experiments.rglob(f"{exp_id}.yaml") if not p.parent.with_suffix(".yaml").is_file()]
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
