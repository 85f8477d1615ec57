"""Compare the two sides' outputs with experiments/compare.py: the report (in process) and the
text and exit code of its command line (what the page shows); each row's verdict of a
table-driven experiment; the mutation check that the comparator bites."""
import copy
import importlib.util

from ..errors import BookError
from ..experiments.manifest import Experiment
from ..paths import Book
from ..running import normalize
from ..running.sides import run_compare_cli


def load_compare(book: Book):
    spec = importlib.util.spec_from_file_location("book_compare", book.compare_script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compare(exp: Experiment, book: Book, outputs: dict, files: dict) -> dict:
    c = exp.compare
    res = {"expected": c["expect"], "tol": c["tol"], "why": c["why"]}
    if c["tols"]:
        res["tols"] = c["tols"]
    a, b = outputs.get("python"), outputs.get("burn")
    if not isinstance(a, dict) or not isinstance(b, dict):
        res["error"] = "两侧的标准输出必须都是 JSON 对象"
        return res
    report = load_compare(book).compare(a, b, c["tol"], c["fields"], c["tols"])
    text, code = run_compare_cli(book, a, b, c["tol"], c["fields"], c["tols"])
    files["compare.txt"] = text
    files["compare.json"] = normalize.dump_json(report)
    errors = [f"{r['field']}: {r['error']}" for r in report["fields"] if r["error"]]
    res.update(ok=report["ok"], worst=report["worst"], worst_field=report["worst_field"],
               over=report["over"], structural=report["structural"],
               exit_code=code, first_error=errors[0] if errors else None)
    if exp.rows:
        res["rows"] = row_results(exp, report)
        declared = {r["id"] for r in exp.rows}
        for side, out in (("python", a), ("burn", b)):
            got = out.get("rows") if isinstance(out.get("rows"), dict) else {}
            extra = sorted(set(got) - declared)
            if extra:
                res.setdefault("undeclared", {})[side] = extra
    return res


def row_results(exp: Experiment, report: dict) -> dict:
    """Each row of a table-driven experiment: same (every leaf within the row's tolerance),
    differs (a value out of it, or a dtype or shape that differs) or structural (missing)."""
    out = {}
    for r in exp.rows:
        name = f"rows.{r['id']}"
        leaves = [f for f in report["fields"] if f["field"] == name or f["field"].startswith(name + ".")]
        if not leaves or any(f.get("structural") for f in leaves):
            out[r["id"]] = "structural"
        elif any(f["error"] or f["field"] in report["over"] for f in leaves):
            out[r["id"]] = "differs"
        else:
            out[r["id"]] = "same"
    return out


def mutate(exp: Experiment, book: Book, outputs: dict, files: dict) -> dict:
    """Perturb one number of a copy of the PyTorch output: the comparator must bite."""
    m = exp.mutation
    cmp = load_compare(book)
    a = copy.deepcopy(outputs["python"])
    try:
        values = cmp._get(a, m["field"])
        flat = values if isinstance(values, list) else None
        if flat is None or not flat or isinstance(flat[0], list):
            raise KeyError(m["field"])
        flat[m["index"]] += m["delta"]
    except (KeyError, IndexError):
        raise BookError(f"实验 {exp.id}：mutation.field {m['field']}[{m['index']}] "
                        "不是 PyTorch 输出里的一维数字列表") from None
    text, code = run_compare_cli(book, a, outputs["burn"], exp.compare["tol"],
                                 exp.compare["fields"], exp.compare["tols"])
    files["mutation.txt"] = text
    return dict(m, exit_code=code, text=text.strip().splitlines()[-1] if text.strip() else "")


def verdict(outcome: dict) -> str:
    """The build log's one-line summary of an outcome."""
    parts = []
    for name in ("python", "burn"):
        if name in outcome:
            parts.append(f"{name} {outcome[name]['actual']['status']}")
    if "compare" in outcome and "rows" in outcome["compare"]:
        states = list(outcome["compare"]["rows"].values())
        parts.append("rows " + ", ".join(f"{states.count(k)} {k}" for k in ("same", "differs", "structural")
                                         if states.count(k)))
    elif "compare" in outcome and "ok" in outcome["compare"]:
        c = outcome["compare"]
        parts.append(f"compare {'OK' if c['ok'] else 'MISMATCH'} {c['worst']:.2e}")
    return ", ".join(parts)



def add_comparison(exp: Experiment, book: Book, outputs: dict, files: dict, outcome: dict) -> None:
    """The comparison (and the mutation check) into the outcome, their texts into files."""
    if exp.compare:
        outcome["compare"] = compare(exp, book, outputs, files)
        if exp.mutation and not outcome["compare"].get("error"):
            outcome["mutation"] = mutate(exp, book, outputs, files)
