"""The rules of 「扫描你的脚本」 (docs/scan.md, `make scan`): one data file, built from what the
book already holds, that docs/assets/scan.js reads in the browser and under node.

- every row of the torch → burn map (book/pages/reference.py): its anchor, the verdict its run
  confirmed, its PyTorch text, its pitfall page and its fix row;
- for each spelling a row declares, how the row's own PyTorch text calls it (book/pages/
  scan_calls.py): the keyword arguments and their literal values, how many arguments, whether
  the call stands at the top of the text or inside another call's arguments;
- the `scan:` entries of the pitfall pages' front matter, for traps no row's call reaches;
- the alias table of book/site/search_synonyms.yaml (torch.nn.functional is F).

How a script's calls are matched against these is scan.js's business (and docs/scan.md says
it in words); this module only reads manifests, build_outputs/ and docs/, and never writes."""
import re
from pathlib import Path

import yaml

from ..checking.contract import ROW_WANT
from ..errors import BookError
from ..paths import Book
from . import outputs, reference
from .programs import manifest
from .scan_calls import (METHOD_PREFIXES, about_names, call_info, conditions, dtype_names, form,
                         methods_called, positional)

VERSION = 2
SYNONYMS = Path(__file__).resolve().parents[1] / "site" / "search_synonyms.yaml"
PITFALLS = "10-pitfalls"
# What a `scan:` entry may say besides `call:` (docs/scan.md explains each).
SCAN_KEYS = {"call", "has", "eq", "arg", "unless"}
# The prefixes a scanned call's spelling can have beyond the rows' own spellings: module paths
# the scanner resolves imports to, and the receivers it types (a method on a tensor is Tensor.x).
PATTERN = re.compile(r"^(torch|nn|F)(\.[A-Za-z_][A-Za-z0-9_]*)+$")
FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


def aliases() -> list[list[str]]:
    """search_synonyms.yaml's aliases, longest prefix first (the order they apply in)."""
    data = yaml.safe_load(SYNONYMS.read_text(encoding="utf-8"))["aliases"]
    return sorted(([str(k), str(v)] for k, v in data.items()), key=lambda kv: -len(kv[0]))


def _front(path: Path) -> dict:
    m = FRONT.match(path.read_text(encoding="utf-8"))
    return (yaml.safe_load(m.group(1)) or {}) if m else {}


def _state(book: Book, exp_id: str, row: dict) -> str:
    """The verdict as the run confirmed it: a row whose run disagrees stops the build here, as
    on the map (reference.row_line)."""
    state = outputs.entry(book, exp_id).json("outcome.json")["compare"]["rows"].get(row["id"])
    if state != ROW_WANT[row["verdict"]]:
        raise BookError(f"对照表的行 {exp_id}/{row['id']} 是 {row['verdict']}，运行的结果是 {state}："
                        "先让构建通过")
    return row["verdict"]


def _rows(book: Book, alias: list[list[str]]) -> tuple[list[dict], dict, dict]:
    """The map's rows in table order, {spelling: [[row index, call info], ...]}, and for each
    class spelling (torch.amp.GradScaler) {method its rows' texts call: [row index, ...]}."""
    rows, spell, methods = [], {}, {}
    for exp_id in reference.experiments(book):
        by_id = {r["id"]: r for r in manifest(book, exp_id).rows}
        for r in manifest(book, exp_id).rows:
            idx = len(rows)
            default = r["id"].startswith("default_")
            rows.append({"a": reference.anchor(exp_id, r["id"]), "v": _state(book, exp_id, r),
                         "t": r["torch"], "p": r.get("pitfall"), "d": default, "w": r.get("when"),
                         "c": conditions(r.get("when")),
                         "f": reference.anchor(exp_id, r["fix"]) if r.get("fix") in by_id else None})
            names = r.get("spellings") or []
            for s in names:
                info = call_info(r["torch"], s, names, alias)
                if default:
                    info["about"] = about_names(r["torch"], s, names, r["id"], alias)
                spell.setdefault(s, []).append([idx, info])
                if form(s) == "module":
                    for m in methods_called(r["torch"]):
                        methods.setdefault(s, {}).setdefault(m, []).append(idx)
    return rows, spell, methods


def _check_conditions(rows: list[dict], spell: dict) -> None:
    """A when: the scan reads must be one it can check: a parameter some call of the row's
    spellings binds (a keyword a row writes, or a positional one of scan_calls.POSITIONAL), a
    layer the scanner can name. Else the build stops, naming the row."""
    names = {s: {k for _, info in entries for k in info.get("k") or {}} | set(positional(s) or [])
             for s, entries in spell.items()}
    of_row: dict = {}
    for s, entries in spell.items():
        for idx, _ in entries:
            of_row.setdefault(idx, []).append(s)
    for idx, row in enumerate(rows):
        for c in row["c"]:
            if "has" in c and not any(s == c["has"] or s.startswith(c["has"]) for s in spell):
                raise BookError(f"对照表的行 {row['a']}：when 里的 {c['has']} 不是任何一行的写法的开头，"
                                "扫描认不出脚本里有没有它")
            if "p" in c and not all(c["p"] in names[s] for s in of_row.get(idx, [])):
                raise BookError(f"对照表的行 {row['a']}：when 里的条件说的参数 {c['p']}，这一行的写法"
                                f"（{'、'.join(of_row.get(idx, []))}）的调用里认不出它：行的 torch 一栏写它的关键字，"
                                "或在 book/pages/scan_calls.py 的 POSITIONAL 里写出参数的顺序")


def _pitfall_pages(book: Book) -> dict:
    """{"10-pitfalls/x": (title as plain text, front matter)} of every pitfall page."""
    out = {}
    for path in sorted((book.root / "docs" / PITFALLS).glob("*.md")):
        meta = _front(path)
        if meta.get("kind") != "pitfall":
            continue
        text = FRONT.sub("", path.read_text(encoding="utf-8"), count=1)
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), path.stem)
        # A title with a macro in it (module-hashmap's count) is read without the macro.
        title = re.sub(r"\{\{.*?\}\}", "…", title).replace("`", "")
        out[f"{PITFALLS}/{path.stem}"] = (title, meta)
    return out


def _producible(spelling: str, known: set) -> bool:
    if spelling in known:
        return True
    last = spelling.rpartition(".")[2]
    if any(spelling.startswith(p) for p in METHOD_PREFIXES):
        return last.isidentifier()
    return bool(PATTERN.match(spelling))


def _scan_entries(pages: dict, known: set) -> list[dict]:
    """The front matter's `scan:` lists, checked: a page that names a spelling the scanner can
    never produce (DataLoader for torch.utils.data.DataLoader, a typo) stops the build."""
    out = []
    for page, (_, meta) in pages.items():
        entries = meta.get("scan") or []
        if not isinstance(entries, list):
            raise BookError(f"docs/{page}.md：front matter 的 scan: 应当是一个列表")
        for e in entries:
            if not isinstance(e, dict) or not isinstance(e.get("call"), str) or set(e) - SCAN_KEYS:
                raise BookError(f"docs/{page}.md：scan: 的每一项是 {{call: 写法}}，可以再加 has、eq、arg、unless；"
                                f"得到 {e!r}")
            if "unless" in e and not (isinstance(e["unless"], str) and _producible(e["unless"], known)):
                raise BookError(f"docs/{page}.md：scan: 的 unless 写一个扫描器会认出的写法（如 torch.save），"
                                f"得到 {e['unless']!r}")
            if not _producible(e["call"], known):
                raise BookError(f"docs/{page}.md：scan: 里的 {e['call']!r} 不是扫描器会认出的写法："
                                "写完整的路径（torch.utils.data.DataLoader、nn.Module.to、Tensor.half），"
                                "和对照表 spellings 的写法一样")
            out.append(dict(e, page=page))
    return out


def build(book: Book) -> dict:
    """The rules as one JSON-able dict (docs/assets/scan.js documents how it reads them)."""
    alias = aliases()
    rows, spell, methods = _rows(book, alias)
    _check_conditions(rows, spell)
    pages = _pitfall_pages(book)
    linked = {r["p"] for r in rows if r["p"]}
    missing = sorted(p for p in linked if p not in pages)
    if missing:
        raise BookError(f"对照表的行指向的坑页不存在或不是 kind: pitfall：{missing}")
    scan = _scan_entries(pages, set(spell))
    return {"version": VERSION, "aliases": alias, "rows": rows, "spell": spell,
            "methods": methods, "scan": scan,
            "pitfalls": {p: t for p, (t, _) in pages.items()},
            "params": {s: positional(s) for s in sorted(spell) if positional(s)},
            "dtypes": dtype_names(),
            "prefixes": list(METHOD_PREFIXES)}


def verdict_conflicts(rules: dict) -> list[str]:
    """Two answers for one call: rows that list the same spelling with the same PyTorch text
    (whitespace aside; a comment naming the inputs tells two cases apart) but give different
    verdicts, a row and its own fix aside. Each as a line naming the spelling and the rows."""
    rows, out, seen = rules["rows"], [], set()
    groups: dict = {}
    for spelling, entries in rules["spell"].items():
        for idx, _info in entries:
            groups.setdefault((spelling, re.sub(r"\s+", "", rows[idx]["t"])), []).append(idx)
    for (spelling, _text), idxs in sorted(groups.items()):
        fixes = {rows[i]["f"] for i in idxs if rows[i]["f"]}
        keep = sorted({i for i in idxs if rows[i]["a"] not in fixes})
        if len({rows[i]["v"] for i in keep}) > 1 and tuple(keep) not in seen:
            seen.add(tuple(keep))
            out.append(f"{spelling}（{rows[keep[0]]['t']}）：" +
                       "、".join(f"{rows[i]['a']} 说 {rows[i]['v']}" for i in keep))
    return out
