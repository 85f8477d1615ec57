"""make diff: what changed in build_outputs/ against a git ref, in the reviewer's terms.

Each experiment that differs falls in the first of these that applies:
  outcome  an outcome changed (a side's status, an expected failure, a comparison's verdict);
  worst    the comparison's worst difference moved;
  text     some other output changed (printed values, compiler or panic text, provenance);
  inputs   only the cache key's inputs changed, every output is the same;
  volatile only timings / run times changed: hidden unless asked for (--volatile).
"""
import json
import subprocess
import sys

from ..checking import contract
from ..errors import BookError
from ..paths import Book

VOLATILE = {"volatile.json"}
# hashes.json follows the other files: it changes exactly when they do.
KEYS = {"inputs.json", "hashes.json"}
ORDER = ["added", "removed", "outcome", "worst", "text", "inputs", "volatile"]
TITLES = {
    "added": "新增的实验", "removed": "删掉的实验", "outcome": "结局变了", "worst": "最大误差变了",
    "text": "输出文本变了", "inputs": "只有输入变了（输出逐字节相同）", "volatile": "只有计时变了",
}


def _git(book: Book, *args) -> str:
    p = subprocess.run(["git", *args], cwd=book.root, capture_output=True, text=True)
    if p.returncode != 0:
        raise BookError(f"git {' '.join(args)} 失败：{p.stderr.strip()}")
    return p.stdout


def files_at(book: Book, ref: str) -> dict[str, dict[str, str]]:
    """{experiment id: {file name: text}} of build_outputs/ at a git ref."""
    try:
        _git(book, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except BookError:
        raise BookError(f"没有这个 git 引用：{ref!r}（试试 HEAD、main 或一个提交号）") from None
    rel = book.outputs.relative_to(book.root).as_posix()
    out: dict[str, dict[str, str]] = {}
    for path in _git(book, "ls-tree", "-r", "--name-only", ref, "--", f"{rel}/").splitlines():
        parts = path[len(rel) + 1:].split("/")
        if len(parts) != 2 or parts[0].startswith("."):
            continue
        out.setdefault(parts[0], {})[parts[1]] = _git(book, "show", f"{ref}:{path}")
    return out


def files_now(book: Book) -> dict[str, dict[str, str]]:
    out = {}
    if book.outputs.is_dir():
        for d in sorted(book.outputs.iterdir()):
            if d.is_dir() and not d.name.startswith("."):
                out[d.name] = {f.name: f.read_text("utf-8") for f in sorted(d.iterdir()) if f.is_file()}
    return out


def _outcome_changes(old: dict, new: dict) -> list[str]:
    changes = []
    for name, label in (("python", "PyTorch"), ("burn", "burn")):
        o, n = old.get(name), new.get(name)
        if contract.status_text(o) != contract.status_text(n):
            changes.append(f"{label}：{contract.status_text(o)} → {contract.status_text(n)}")
        elif o and n and o["expected"] != n["expected"]:
            changes.append(f"{label} 的期望：{o['expected']} → {n['expected']}")
        elif o and n and (o["actual"].get("panic") or "") != (n["actual"].get("panic") or ""):
            changes.append(f"{label} 的 panic 信息变了")
    oc, nc = old.get("compare"), new.get("compare")
    verdict = lambda c: "—" if c is None else ("OK" if c.get("ok") else "MISMATCH")  # noqa: E731
    if verdict(oc) != verdict(nc):
        changes.append(f"比较：{verdict(oc)} → {verdict(nc)}")
    elif oc and nc and oc.get("expected") != nc.get("expected"):
        changes.append(f"比较的期望：{oc.get('expected')} → {nc.get('expected')}")
    return changes


def classify(old: dict[str, str] | None, new: dict[str, str] | None) -> tuple[str, list[str]] | None:
    """(category, details) for one experiment, or None when nothing changed."""
    if old is None:
        return "added", []
    if new is None:
        return "removed", []
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    if not changed:
        return None
    stable = [f for f in changed if f not in VOLATILE | KEYS]
    if not stable:
        return ("inputs", ["inputs.json"]) if set(changed) & KEYS else ("volatile", changed)
    try:
        oo, no = json.loads(old.get("outcome.json", "{}")), json.loads(new.get("outcome.json", "{}"))
    except ValueError:
        oo = no = {}
    outcome = _outcome_changes(oo, no)
    if outcome:
        return "outcome", outcome
    ow, nw = (oo.get("compare") or {}).get("worst"), (no.get("compare") or {}).get("worst")
    if ow != nw:
        return "worst", [f"{ow:.3e} → {nw:.3e}" if None not in (ow, nw) else f"{ow} → {nw}"]
    return "text", stable


def review(book: Book, ref: str, show_volatile: bool = False) -> dict[str, list]:
    old, new = files_at(book, ref), files_now(book)
    found = {k: [] for k in ORDER}
    for exp_id in sorted(old.keys() | new.keys()):
        c = classify(old.get(exp_id), new.get(exp_id))
        if c:
            found[c[0]].append((exp_id, c[1]))
    if not show_volatile:
        found.pop("volatile")
    return found


def render(found: dict, ref: str) -> str:
    lines = [f"build_outputs/ 与 {ref} 相比："]
    total = 0
    for cat in ORDER:
        items = found.get(cat)
        if not items:
            continue
        total += len(items)
        lines.append(f"\n## {TITLES[cat]}（{len(items)}）")
        for exp_id, details in items:
            lines.append(f"- {exp_id}" + (f"：{'；'.join(details)}" if details else ""))
    if not total:
        lines.append("没有变化" + ("" if "volatile" in found else "（计时的变化不算；要看加 --volatile）"))
    return "\n".join(lines) + "\n"


def render_markdown(found: dict, ref: str) -> str:
    """The same categories as render(), as Markdown for a pull request's job summary: a count
    table first, then each category's experiments."""
    items = [(cat, found[cat]) for cat in ORDER if found.get(cat)]
    lines = [f"### build_outputs/ 与 `{ref}` 相比", ""]
    if not items:
        lines.append("没有变化" + ("" if "volatile" in found else "（只有计时变了的不算）"))
        return "\n".join(lines) + "\n"
    lines += ["| 变化 | 实验数 |", "|---|---:|"] + [f"| {TITLES[c]} | {len(v)} |" for c, v in items]
    for cat, entries in items:
        lines += ["", f"#### {TITLES[cat]}（{len(entries)}）", ""]
        for exp_id, details in entries:
            text = "；".join(d.replace("|", "\\|") for d in details)
            lines.append(f"- `{exp_id}`" + (f"：{text}" if text else ""))
    return "\n".join(lines) + "\n"


def uncommitted(book: Book) -> list[tuple[str, str]]:
    """(experiment id, category) of every entry the working tree has changed against HEAD,
    timings aside: after `make site` on a fresh checkout, the experiments whose inputs changed
    in the commit but whose outputs were not regenerated and committed with them."""
    found = review(book, "HEAD")
    return [(exp_id, cat) for cat in ORDER if cat in found for exp_id, _ in found[cat]]


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m book.commands.review")
    ap.add_argument("ref", nargs="?", default="HEAD")
    ap.add_argument("--volatile", action="store_true", help="也列出只有计时变了的实验")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--format", choices=["text", "markdown", "json"], default="text")
    ap.add_argument("--committed", action="store_true",
                    help="工作区的 build_outputs/ 和 HEAD 不同（计时除外）就失败，列出实验")
    args = ap.parse_args(argv)
    book = Book()
    try:
        if args.committed:
            return _committed(book)
        found = review(book, args.ref, args.volatile)
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    fmt = "json" if args.json else args.format
    if fmt == "json":
        print(json.dumps(found, ensure_ascii=False, indent=1))
    elif fmt == "markdown":
        print(render_markdown(found, args.ref), end="")
    else:
        print(render(found, args.ref), end="")
    return 0


def _committed(book: Book) -> int:
    stale = uncommitted(book)
    if not stale:
        print("build_outputs/ 和提交的一致：每个实验的输出都随它的输入一起提交了")
        return 0
    print("这些实验的输入在提交里变了，提交的 build_outputs/ 却不是它们现在的输出"
          "（本地 make site，再把 build_outputs/ 和改动一起提交）：", file=sys.stderr)
    for exp_id, cat in stale:
        print(f"- {exp_id}（{TITLES[cat]}）", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
