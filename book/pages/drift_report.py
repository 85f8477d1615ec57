"""Render a drift report (drift/<label>.json) for the terminal and for the appendix page."""
import json

from ..errors import BookError
from ..paths import Book
from .text import cell


def load(book: Book, label: str) -> dict:
    f = book.root / "drift" / f"{label}.json"
    if not f.is_file():
        have = sorted(p.stem for p in (book.root / "drift").glob("*.json"))
        raise BookError(f"没有 drift 报告 drift/{label}.json（有：{', '.join(have) or '无'}）；"
                        f"先运行 make drift BURN=…")
    return json.loads(f.read_text("utf-8"))


def summary(r: dict) -> dict:
    exps = r["experiments"]
    ran = [e for e in exps if e["holds"] is not None]
    fails = [f for e in exps for f in e.get("expected_failures", [])]
    moved = [e for e in exps if e.get("compare") and e["compare"]["worst_before"] is not None
             and e["compare"]["worst"] != e["compare"]["worst_before"]]
    links = r["links"]
    return {
        "experiments": len(exps), "ran": len(ran),
        "unchanged": sum(1 for e in ran if e["holds"] and not e["changes"]),
        "holds": sum(1 for e in ran if e["holds"]),
        "pitfalls": len(r["pitfalls"]),
        "pitfalls_reproduce": sum(1 for v in r["pitfalls"].values() if v is True),
        "pitfalls_not_run": sum(1 for v in r["pitfalls"].values() if v is None),
        "vanished": sum(1 for f in fails if f["kind"] == "vanished"),
        "changed": sum(1 for f in fails if f["kind"] == "changed"),
        "compare_moved": len(moved),
        "links": len(links), "links_same": sum(1 for x in links if x["state"] == "same"),
        "links_moved": sum(1 for x in links if x["state"] == "moved"),
        "links_missing": sum(1 for x in links if x["state"] == "missing"),
    }


def headline(r: dict) -> str:
    s = summary(r)
    return (f"burn {r['from']['burn']} → {r['to']['burn']}：{s['experiments']} 个实验里跑成 {s['ran']} 个，"
            f"契约仍成立 {s['holds']} 个（结局和数都没变 {s['unchanged']} 个）；"
            f"坑仍然复现 {s['pitfalls_reproduce']}/{s['pitfalls']}"
            + (f"（{s['pitfalls_not_run']} 个没跑）" if s["pitfalls_not_run"] else "") + "；"
            f"预期的失败消失 {s['vanished']} 个、变了 {s['changed']} 个；"
            f"比较的最大误差变了 {s['compare_moved']} 个；"
            f"源码链接 {s['links']} 个：原样 {s['links_same']}、行号移动 {s['links_moved']}、"
            f"找不到 {s['links_missing']}。")


def drift_report(book: Book, label: str) -> str:
    r = load(book, label)
    out = [f"**{cell(headline(r))}**", "",
           f"这次 drift 在一个临时副本里用 burn {cell(r['to']['burn'])}"
           f"（burn-onnx {cell(r['to'].get('burn-onnx') or '不变')}，torch {cell(r['to']['torch'])}）"
           f"重新构建并运行了全书的实验，用了 {r['minutes']} 分钟；已提交的缓存和 Cargo.lock 没有动。", ""]
    out += ["### 坑还在不在", "", "| 坑 | 还在 |", "|---|---|"]
    for page, ok in sorted(r["pitfalls"].items()):
        state = {True: "是", False: "**否：变了**", None: "没跑（需要硬件）"}[ok]
        out.append(f"| [{cell(page.split('/')[-1])}](../{page}.md) | {state} |")
    fails = [(e["id"], f) for e in r["experiments"] for f in e.get("expected_failures", [])]
    out += ["", "### 预期的失败", ""]
    if fails:
        out += ["| 实验 | 侧 | 情况 | 期望 | 实际 |", "|---|---|---|---|---|"]
        for i, f in fails:
            kind = "消失了" if f["kind"] == "vanished" else "变了"
            out.append(f"| `{i}` | {f['side']} | {kind} | {cell(f['expected'])} | {cell(f['actual'])} |")
    else:
        out.append("每一个预期的失败都还在，和清单写的一样。")
    out += ["", "### 逐页的变化", ""]
    page = None
    for e in sorted(r["experiments"], key=lambda e: (e["page"], e["id"])):
        if e["page"] != page:
            page = e["page"]
            out += ["", f"#### {cell(page or '（没有页面）')}", "", "| 实验 | 契约 | 变化 |", "|---|---|---|"]
        holds = {True: "成立", False: "**不成立**", None: "没跑"}[e["holds"]]
        out.append(f"| `{e['id']}` | {holds} | {cell('；'.join(e['changes'])) or '无'} |")
    moved = [x for x in r["links"] if x["state"] != "same"]
    out += ["", "### 源码链接", ""]
    if moved:
        out += ["| 页面 | 文件 | 符号 | 0.22.1 的行 | 新版本的行 |", "|---|---|---|---|---|"]
        for x in moved:
            after = f"L{x['after'][0]}–L{x['after'][1]}" if x["after"] else "找不到"
            before = f"L{x['before'][0]}–L{x['before'][1]}" if x["before"] else "找不到"
            out.append(f"| {cell(x['page'])} | <code>{cell(x['path'])}</code> | <code>{cell(x['symbol'])}</code> | {before} | {after} |")
    else:
        out.append("每个链接的符号都在原来的行上。")
    return "\n".join(out) + "\n"
