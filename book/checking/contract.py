"""Stage 3: check what happened against what the manifest expects, in both directions."""
from ..experiments.manifest import Experiment


def describe(expect: dict) -> str:
    kind, value = expect["kind"], expect.get("value")
    return {
        "ok": "正常结束",
        "timeout": "超时",
        "exception": f"抛出 {value}",
        "compile_error": f"编译错误 {value}",
        "build_script_error": f"依赖 {value} 的构建脚本失败",
        "panic": f"panic，信息含 {value!r}",
    }[kind]


def describe_actual(actual: dict) -> str:
    s = actual["status"]
    if s == "ok":
        return "正常结束"
    if s == "exception":
        return f"抛出 {actual.get('exception')}"
    if s == "compile_error":
        codes = actual.get("codes") or []
        return f"编译错误 {', '.join(codes) if codes else '（无错误码）'}"
    if s == "build_script_error":
        return f"依赖 {actual.get('build_script')} 的构建脚本失败"
    if s == "panic":
        return f"panic：{(actual.get('panic') or '').splitlines()[0] if actual.get('panic') else ''}"
    if s == "timeout":
        return "超时"
    return f"异常退出（退出码 {actual.get('exit_code')}）"


def status_text(side: dict | None) -> str:
    """A side's actual outcome in one short token ("compile_error E0382"), for change lists."""
    if side is None:
        return "—"
    a = side["actual"]
    detail = a.get("exception") or a.get("build_script") or ",".join(a.get("codes") or [])
    return a["status"] + (f" {detail}" if detail else "")


def side_holds(expect: dict, actual: dict) -> bool:
    kind, value = expect["kind"], expect.get("value")
    s = actual["status"]
    if kind in ("ok", "timeout"):
        return s == kind
    if kind == "exception":
        return s == "exception" and actual.get("exception") == value
    if kind == "compile_error":
        return s == "compile_error" and value in (actual.get("codes") or [])
    if kind == "build_script_error":
        return s == "build_script_error" and actual.get("build_script") == value
    if kind == "panic":
        return s == "panic" and value in (actual.get("panic") or "")
    return False


def check(exp: Experiment, outcome: dict) -> list[str]:
    """Every broken promise, as one message each that names the experiment and its page."""
    where = f"实验 {exp.id}" + (f"（页面 {exp.page}）" if exp.page else "")
    problems = []
    for name, label in (("python", "PyTorch 侧"), ("burn", "burn 侧")):
        side = outcome.get(name)
        if side is None:
            continue
        if not side_holds(side["expected"], side["actual"]):
            problems.append(f"{where}：{label}期望{describe(side['expected'])}，"
                            f"实际{describe_actual(side['actual'])}")
    feats = (outcome.get("burn") or {}).get("features")
    if feats and feats["compiled"] != feats["expected"]:
        problems.append(f"{where}：burn 实际编译的 features {feats['compiled']} 与 Cargo.toml 要求的 "
                        f"{feats['expected']} 不同：有 feature 从别的 crate 漏了进来（cargo 的 feature 合并）")
    cmp = outcome.get("compare")
    if cmp is not None:
        if cmp.get("error"):
            problems.append(f"{where}：无法比较：{cmp['error']}")
        elif cmp["expected"] == "rows":
            problems += _rows(exp, cmp, where)
        elif cmp["expected"] == "match" and not cmp["ok"]:
            problems.append(f"{where}：比较 MISMATCH，最大误差 {cmp['worst']:.2e}"
                            f"（字段 {cmp['worst_field']}），容差 {cmp['tol']:g}"
                            + (f"；超出各自容差的字段：{', '.join(cmp['over'])}" if cmp.get("over") else "")
                            + (f"；{cmp['first_error']}" if cmp.get("first_error") else ""))
        elif cmp["expected"] == "mismatch" and cmp.get("structural"):
            problems.append(f"{where}：期望两边的数值对不上（expected mismatch），但比较出的是结构错误，"
                            f"不是数值差异：{'；'.join(cmp['structural'][:3])}；"
                            "检查 compare.fields 的拼写和两侧输出的结构")
        elif cmp["expected"] == "mismatch" and cmp["ok"]:
            problems.append(f"{where}：期望两边对不上（expected mismatch），实际在容差 "
                            f"{cmp['tol']:g} 内对上了（最大误差 {cmp['worst']:.2e}）："
                            "这一页要讲的现象消失了")
    mut = outcome.get("mutation")
    if mut is not None and not (mut["exit_code"] == 1 and "MISMATCH" in mut["text"]):
        problems.append(f"{where}：变异检查失败：把 {mut['field']}[{mut['index']}] 加 "
                        f"{mut['delta']} 之后，比较器退出码 {mut['exit_code']}，期望 1 和 MISMATCH")
    return problems


ROW_WANT = {"same": "same", "none": "same", "differs": "differs"}


def _rows(exp: Experiment, cmp: dict, where: str) -> list[str]:
    """A table-driven experiment: every row as its verdict says, both ways (a row declared to
    differ that now agrees is a broken promise too), and no row that the table lacks."""
    problems = []
    got = cmp.get("rows", {})
    for r in exp.rows:
        state = got.get(r["id"], "structural")
        want = ROW_WANT[r["verdict"]]
        if state == "structural":
            problems.append(f"{where}：行 {r['id']}（{r['torch']}）：一侧或两侧没有输出 rows.{r['id']}，"
                            "或两侧的结构对不上；脚本和 crate 都要输出这一行")
        elif state != want:
            problems.append(f"{where}：行 {r['id']}（{r['torch']}）：表里写的是 {r['verdict']}，"
                            + ("实际在容差内对上了：这一行不再不同，改 verdict 和 how"
                               if want == "differs" else "实际对不上（见 compare.txt 里 rows."
                               f"{r['id']} 的几行）"))
    for side, extra in (cmp.get("undeclared") or {}).items():
        problems.append(f"{where}：{side} 侧输出了表里没有的行 {extra}：在清单的 rows 里加上它们")
    return problems


def recheck(exp: Experiment, outcome: dict) -> list[str]:
    """check() against what the manifest expects now (for a kept output that cannot be rerun)."""
    outcome = {k: dict(v) if isinstance(v, dict) else v for k, v in outcome.items()}
    for name in ("python", "burn"):
        side = getattr(exp, name)
        if side and name in outcome:
            outcome[name]["expected"] = side["expect"]
    if exp.compare and "compare" in outcome:
        outcome["compare"]["expected"] = exp.compare["expect"]
    return check(exp, outcome)
