"""The execution report (an appendix page): every experiment, its outcomes, its state. Render-only."""
import json

from .. import hardware
from ..cache import ledger
from ..cache.keys import stored_inputs
from ..cache import states as states_file
from ..checking import contract
from ..experiments.manifest import by_id
from ..paths import Book
from .text import cell

STATE_LABELS = {"cached": "缓存", "ran": "重跑", "compared": "只重新比较", "skipped": "跳过（缺硬件）", "failed": "失败"}


def _side(outcome: dict, name: str) -> str:
    side = outcome.get(name)
    if side is None:
        return "—"
    want = contract.describe(side["expected"])
    got = contract.describe_actual(side["actual"])
    if contract.side_holds(side["expected"], side["actual"]):
        return f"✓ {cell(want)}"
    return f"✗ 期望{cell(want)}，实际{cell(got)}"


def _compare(outcome: dict) -> str:
    c = outcome.get("compare")
    if c is None:
        return "—"
    if c.get("error"):
        return f"✗ {cell(c['error'])}"
    verdict = "OK" if c["ok"] else "MISMATCH"
    holds = (c["expected"] == "match") == c["ok"]
    return (f"{'✓' if holds else '✗'} 期望 {c['expected']}：{verdict} "
            f"{c['worst']:.2e} / {c['tol']:g}")


def _short(outcome: dict) -> str:
    """The row's outcomes in a few words: each side's status, then the comparison's verdict."""
    parts = [outcome[s]["actual"]["status"] for s in ("python", "burn") if s in outcome]
    c = outcome.get("compare")
    if c is not None:
        parts.append("比较出错" if c.get("error") else ("对上" if c["ok"] else "对不上"))
    return cell(" / ".join(parts))


def _provenance(prov: dict) -> str:
    parts = []
    if prov.get("torch"):
        parts.append(f"torch {prov['torch']}")
    if prov.get("burn"):
        feats = ",".join(prov.get("features_requested") or [])
        parts.append(f"burn {prov['burn']} [{feats}] {prov.get('profile', '')}")
    for extra in ("burn_store", "burn_onnx"):
        if prov.get(extra):
            parts.append(f"{extra.replace('_', '-')} {prov[extra]['version']}")
    for req, info in (prov.get("hardware") or {}).items():
        parts.append(f"{req}: {', '.join(info.get('icd') or []) or info.get('gpu') or '?'}")
    cpu = prov.get("cpu") or {}
    if cpu.get("simd"):
        parts.append(f"CPU {cpu.get('vendor', '?')} {cpu['simd']}（输出随 CPU 变）")
    elif cpu.get("pins"):
        parts.append(f"torch 内核 {cpu.get('torch_capability', '?')}（固定）")
    return cell("；".join(parts))


def _keys(book: Book) -> dict[str, str]:
    """Each entry's key as committed (inputs.json): what a reproduction must have rerun."""
    return {i: k for i in by_id(book) if (k := (stored_inputs(book, i) or {}).get("key"))}


def _reproduced(recs: dict) -> str:
    """'2026-12-01 GenuineIntel AVX-512；…' for one experiment, newest class first."""
    if not recs:
        return "还没有（当前的输入从未被 make reproduce 重跑过）"
    by_date = sorted(recs.values(), key=lambda r: (r["date"], r["cpu"]), reverse=True)
    return "；".join(f"{r['date']} 在 {r['cpu']} 上（{r['commit'][:10]}）" for r in by_date)


def reproduction_totals(book: Book) -> str:
    """The landing page's sentence: how many experiments any machine can rerun, how many need
    hardware, and on which CPU classes how many were reproduced as they are now (the ledger)."""
    exps = list(by_id(book).values())
    hw = [e for e in exps if e.requires]
    done = ledger.current(book, _keys(book))
    per_class: dict[str, int] = {}
    for classes in done.values():
        for c in classes:
            per_class[c] = per_class.get(c, 0) + 1
    need = "、".join(sorted({hardware.LABELS[r] for e in hw for r in e.requires}))
    head = (f"全书 {len(exps)} 个实验：{len(exps) - len(hw)} 个在任何一台机器上都能重跑"
            + (f"，{len(hw)} 个需要特定的硬件（{need}）" if hw else "") + "。")
    if not per_class:
        return head + "复现记录里还没有哪个实验的当前输入被重跑核对过。"
    classes = "，".join(f"在 {c} 上 {n} 个" for c, n in sorted(per_class.items(), key=lambda kv: (-kv[1], kv[0])))
    return (head + "按复现记录，当前的输入重跑后和书里的输出逐字节一致的："
            + classes + "。")


def rows(book: Book) -> list[dict]:
    """One record per experiment, in page order: what the table and the tests read."""
    states = states_file.read(book)
    done = ledger.current(book, _keys(book))
    out = []
    for e in by_id(book).values():
        d = book.outputs / e.id
        rec = {"id": e.id, "page": e.page or "", "exp": e, "state": states.get(e.id, {}).get("state"),
               "reproduced": done.get(e.id, {})}
        if (d / "outcome.json").is_file():
            rec["outcome"] = json.loads((d / "outcome.json").read_text("utf-8"))
            rec["provenance"] = json.loads((d / "provenance.json").read_text("utf-8"))
            vol = d / "volatile.json"
            rec["ran_at"] = json.loads(vol.read_text("utf-8")).get("ran_at") if vol.is_file() else None
            rec["problems"] = contract.check(e, rec["outcome"])
        else:
            rec["outcome"] = None
            rec["problems"] = [] if e.requires else ["没有输出"]
        out.append(rec)
    out.sort(key=lambda r: (r["page"], r["id"]))
    return out


def _page_link(book: Book, page: str) -> str:
    """A link mkdocs checks (--strict fails on a page that does not exist)."""
    if not page:
        return "（没有页面）"
    docs = book.root / "docs"
    md = f"{page}.md" if (docs / f"{page}.md").is_file() else f"{page}/index.md"
    return f"[{cell(page)}](../{md})"


def execution_report(book: Book) -> str:
    recs = rows(book)
    n = len(recs)
    failing = [r for r in recs if r["problems"]]
    expected_fail = sum(1 for r in recs if r["outcome"] and any(
        r["outcome"][s]["expected"]["kind"] != "ok" for s in ("python", "burn") if s in r["outcome"])
        or (r["outcome"] or {}).get("compare", {}).get("expected") == "mismatch")
    counts = {}
    for r in recs:
        counts[r["state"]] = counts.get(r["state"], 0) + 1
    state_text = "，".join(f"{STATE_LABELS.get(k, '未知（没有这次构建的记录）')} {v}"
                          for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))
    lines = [
        f"全书 **{n}** 个实验，分布在 {len({r['page'] for r in recs})} 个页面上；"
        f"其中 **{expected_fail}** 个声明了预期的失败（编译错误、panic、异常、超时或对不上）。"
        f"契约不成立的：**{len(failing)}** 个。",
        "",
        f"最近一次完整构建：{state_text}。",
        "",
        reproduction_totals(book) + "详情里的「复现」一行是每个实验最近一次在每类 CPU 上被 "
        "`make reproduce` 重跑核对的日期和提交；对输出有疑问，运行 `make reproduce IDS=<实验>`，"
        "再提交复现记录新加的行。",
        "",
        "结局一栏：✓ 表示两侧的结局和比较都和清单里的期望一致，✗ 表示不一致（构建会在那里停下），"
        "后面是 PyTorch / burn 实际的结局和比较的结论。展开详情看每一侧期望什么、"
        "比较的「期望：结论 最大误差 / 容差」、上次运行的时间和来源。",
        "",
    ]
    # One table, one row per experiment; what explains a row is folded into its last cell.
    lines += ["| 实验 | 页面 | 结局 | 状态 | 详情 |", "|---|---|---|---|---|"]
    for r in recs:
        o = r["outcome"]
        state = STATE_LABELS.get(r["state"], "—")
        head = f"| `{r['id']}` | {_page_link(book, r['page'])} |"
        if o is None:
            need = "、".join(hardware.LABELS[x] for x in r["exp"].requires)
            lines.append(f"{head} — | {state} | 从未运行（需要{cell(need)}） |")
            continue
        ran = (r.get("ran_at") or "—").replace("T", " ").replace("+00:00", " UTC")
        details = "<br>".join([f"PyTorch：{_side(o, 'python')}", f"burn：{_side(o, 'burn')}",
                               f"比较：{_compare(o)}", f"上次运行：{cell(ran)}",
                               f"复现：{cell(_reproduced(r['reproduced']))}",
                               f"来源：{_provenance(r['provenance'])}"])
        verdict = "✗ 契约不成立" if r["problems"] else "✓"
        lines.append(f"{head} {verdict} {_short(o)} | {state} | "
                     f"<details><summary>展开</summary>{details}</details> |")
    return "\n".join(lines) + "\n"
