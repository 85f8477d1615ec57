"""The result cell of one map row, in a porter's words: what matched, how many values of which
kind (outputs, gradients), the worst difference against the tolerance; for a row that differs,
the first differing numbers of both sides. Reads compare.json and the sides' outputs only."""
import html
import json
import re

from ..errors import BookError
from . import outputs

# The last key of a leaf says what it holds: dx, dw, grad_h, x_grad, d_weight are gradients.
GRAD_RE = re.compile(r"^(grad|grad_\w+|\w+_grad|d[a-z]{1,2}|d_\w+|dw_\w+|dgamma|dbeta)$")
KIND_WORDS = {"grad": "梯度", "out": "输出"}


def _kind(field: str) -> str:
    last = field.rsplit(".", 1)[-1]
    if last in ("shape", "dtype"):
        return last
    return "grad" if GRAD_RE.match(last) else "out"


def _num(v) -> str:
    # A number as a number; a dtype, a shape or a flag as the code it is.
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return f"<code>{html.escape(text)}</code>"


def _leaves(report: dict, row_id: str) -> list[dict]:
    name = f"rows.{row_id}"
    return [f for f in report["fields"] if f["field"] == name or f["field"].startswith(name + ".")]


def _flat(v):
    if isinstance(v, list):
        for x in v:
            yield from _flat(x)
    else:
        yield v


def _side_value(e, side: str, field: str):
    try:
        return e.field(f"{side}.{field}")
    except BookError:
        return None


def _counts(values: list[dict]) -> str:
    by = {}
    for f in values:
        k = _kind(f["field"])
        by[k] = by.get(k, 0) + f["n"]
    parts = [f"{KIND_WORDS[k]} {by[k]} 个值" for k in ("out", "grad") if k in by]
    return "、".join(parts) if parts else "0 个值"


def _first_difference(e, bad: dict, tol: float) -> str:
    """Where the two sides part, in numbers: the leaf's kind, the index, both values."""
    kind = _kind(bad["field"])
    label = {"shape": "形状", "dtype": "dtype"}.get(kind, KIND_WORDS.get(kind, "值"))
    a, b = _side_value(e, "python", bad["field"]), _side_value(e, "burn", bad["field"])
    if kind in ("shape", "dtype") or not isinstance(a, list) or not isinstance(b, list):
        return f"{label}：PyTorch {_num(a)}，burn {_num(b)}"
    if "at" in bad and not bad["error"]:
        return (f"{label}第 {bad['at']} 个：PyTorch {_num(bad['a'])}，burn {_num(bad['b'])}，"
                f"差 {bad['max_diff']:.2e}（容差 {tol:g}）")
    fa, fb = list(_flat(a)), list(_flat(b))
    if len(fa) != len(fb) and max(len(fa), len(fb)) <= 8:
        return f"{label}：PyTorch {_num(a)}，burn {_num(b)}"
    if len(fa) != len(fb):
        return f"{label}的个数：PyTorch {len(fa)}，burn {len(fb)}"
    diff = [i for i, (p, q) in enumerate(zip(fa, fb)) if p != q]
    if not diff:
        return f"{label}：两边的结构不同"
    i = diff[0]
    return (f"{label}有 {len(diff)} / {len(fa)} 个不同，第一个是第 {i} 个：PyTorch {_num(fa[i])}，"
            f"burn {_num(fb[i])}")


def result(book, exp_id: str, row: dict) -> str:
    """The cell's HTML: the verdict in words, then the numbers behind it."""
    e = outputs.entry(book, exp_id)
    state = e.json("outcome.json")["compare"]["rows"].get(row["id"])
    report = e.json("compare.json")
    leaves = _leaves(report, row["id"])
    tol = leaves[0].get("tol", report["tol"]) if leaves else report["tol"]
    values = [f for f in leaves if _kind(f["field"]) not in ("shape", "dtype")]
    checked = [w for w, k in (("形状", "shape"), ("dtype", "dtype"))
               if any(_kind(f["field"]) == k for f in leaves)]
    if state == "same":
        worst = max(values, key=lambda f: f["max_diff"], default=None)
        exact = worst is None or worst["max_diff"] == 0
        amount = "逐个相等" if exact else f"最大差 {worst['max_diff']:.1e}（容差 {tol:g}）"
        head = ("相同" if row["verdict"] == "same" else
                "burn 0.22.1 没有这个 API；burn 一栏是手写的替代，和 PyTorch 相同")
        same = "、".join(checked) + "相同，" if checked else ""
        return f"{head}：{same}{_counts(values)}，{amount}"
    if state == "differs":
        bad = (next((f for f in leaves if f["error"]), None)
               or max(leaves, key=lambda f: f["max_diff"] - f.get("tol", tol)))
        return f"不同：{_first_difference(e, bad, bad.get('tol', tol))}"
    raise BookError(f"实验 {exp_id} 的行 {row['id']} 的输出不完整（{state}）：先让构建通过")
