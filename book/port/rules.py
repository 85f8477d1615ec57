"""The port generator's rules: book/port/templates.yaml checked against the map. Each piece of
burn code a template may write is filled in with its row's own PyTorch arguments and must then
stand, call by call, in that row's burn module as it ran (book/experiments/regions.py), with
the template's use lines; the row must be `same`, hand-written (`none`) or the fix of a
`differs` row. A template that fails this stops the build, naming the spelling, the piece and
the row. The result carries each template's row anchor (its link on the published map)."""
import ast
import re
from pathlib import Path

import yaml

from ..errors import BookError
from ..pages import reference, scan_rules
from ..pages.programs import manifest
from ..paths import Book
from . import crate

TEMPLATES = Path(__file__).with_name("templates.yaml")
VERSION = 1
# check.py's tolerance: the map's nn rows use 1e-6 on 4-wide layers; a port's layers sum over
# hundreds of products (a 3×3 conv over 64 channels: 576), each adding f32 rounding.
TOL = 1.0e-4
SLOT = re.compile(r"\{([a-z_][a-z_0-9]*)(?::([a-z0-9]+))?\}")


class TemplateError(BookError):
    pass


def _rows(book: Book) -> dict:
    """{anchor: {verdict, torch, module (its burn body), fixes (anchors of the rows it fixes)}}."""
    out = {}
    for exp_id in reference.experiments(book):
        m = manifest(book, exp_id)
        for r in m.rows:
            out[reference.anchor(exp_id, r["id"])] = {
                "verdict": r.get("verdict", "same"), "torch": r["torch"], "module": r["code"],
                "fix": reference.anchor(exp_id, r["fix"]) if r.get("fix") else None}
    for a, r in out.items():
        if r["fix"] in out:
            out[r["fix"]].setdefault("fixes", []).append(a)
    return out


def rust(v, how: str | None = None) -> str:
    """A Python literal as the generated Rust writes it (port.js's rust() does the same)."""
    if how == "pair":
        return ", ".join(rust(x) for x in (v if isinstance(v, (list, tuple)) else (v, v)))
    if how == "fpair":
        return ", ".join(rust(float(x)) for x in (v if isinstance(v, (list, tuple)) else (v, v)))
    if how == "quad":
        return ", ".join([rust(v)] * 4)
    if how in ("f", "f32"):
        return rust(float(v))
    if how == "first":
        return rust(float(v[0]))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        # As JavaScript's String(): 1e-8, not 1e-08 (port.js writes the same text).
        r = re.sub(r"e([+-])0*(\d)", lambda m: "e" + ("" if m.group(1) == "+" else "-") + m.group(2), repr(v))
        return r if ("." in r or "e" in r or "inf" in r or "nan" in r) else r + ".0"
    return str(v)


def fill(piece: str, values: dict) -> str:
    def one(m):
        name, how = m.group(1), m.group(2)
        if name not in values:
            raise KeyError(name)
        v = values[name]
        return v if isinstance(v, str) and how is None and name not in ("mode",) else rust(v, how)
    return SLOT.sub(one, piece)


def _norm(code: str) -> str:
    return re.sub(r"\s+", "", code)


def atoms(code: str) -> list[str]:
    """A chain `A::new(1).with_x(2).init(d)` as the calls it makes: ["A::new(1)", ".with_x(2)",
    ".init(d)"]; each must appear in the row's module (the row may break the chain across
    lines or across its build and forward functions)."""
    code, out, depth, start = _norm(code), [], 0, 0
    for i, c in enumerate(code):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "." and depth == 0 and i > start and code[i + 1:i + 2].isalpha():
            out.append(code[start:i])
            start = i
    out.append(code[start:])
    # A bare receiver (the module m, the input x) is the generator's own name, not the row's.
    return [a for a in out if a and not a.isidentifier()]


def _literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)


def row_args(torch_text: str, sig: list[str], last: str | None = None) -> dict:
    """The arguments of the call named `last` (else the first call) in a row's PyTorch text,
    by the template's signature."""
    text = torch_text.split("  #")[0].strip()
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError:
        return {}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    named = [c for c in calls if getattr(c.func, "attr", getattr(c.func, "id", None)) == last]
    call = (named or calls or [None])[0]
    if call is None:
        return {}
    names = [s.split("=")[0] for s in sig]
    out = {}
    pos = list(call.args)
    if isinstance(call.func, ast.Attribute) and names and names[0] == "input" and not _is_module(call.func):
        out["input"] = ast.unparse(call.func.value)
        names = names[1:]
    for name, a in zip(names, pos):
        out[name.lstrip("*")] = _literal(a)
    for kw in call.keywords:
        out[kw.arg] = _literal(kw.value)
    return out


def _is_module(func: ast.Attribute) -> bool:
    return isinstance(func.value, ast.Name) and func.value.id in ("nn", "F", "torch", "optim")


def defaults(sig: list[str]) -> dict:
    out = {}
    for s in sig:
        if "=" in s:
            k, v = s.split("=", 1)
            out[k] = ast.literal_eval(v)
    return out


def use_names(u: str) -> list[tuple[str, str]]:
    """`a::b::{X, Y}` → [(a::b, X), (a::b, Y)]; `a::b::X` → [(a::b, X)]."""
    u = _norm(u)
    if u.endswith("}"):
        path, _, names = u[:-1].partition("::{")
        return [(path, n) for n in names.split(",") if n]
    path, _, name = u.rpartition("::")
    return [(path, name)]


def imported(module: str) -> set:
    out = set()
    for m in re.finditer(r"^use ([^;]+);", module, re.M | re.S):
        out.update(use_names(m.group(1)))
    return out


def _row(what: str, anchor: str, rows: dict) -> dict:
    if anchor not in rows:
        raise TemplateError(f"book/port/templates.yaml：{what} 指向的行 {anchor} 不在对照表里")
    return rows[anchor]


def _check_piece(spelling: str, what: str, piece: str, uses: list, row_anchor: str, rows: dict,
                 values: dict, skip_type: str | None = None):
    row = rows.get(row_anchor)
    if row is None:
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的 {what} 指向的行 {row_anchor} 不在对照表里")
    if row["verdict"] == "differs":
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的 {what} 用了结果「不同」的行 {row_anchor}，"
                            f"要用它的改法（fix: {row['fix']}）")
    try:
        code = fill(piece, values)
    except KeyError as e:
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的 {what}：行 {row_anchor} 的 PyTorch 写法"
                            f"（{row['torch']}）里没有参数 {e.args[0]}，在 example: 里给出") from None
    body = _norm(row["module"])
    for a in atoms(code):
        if a not in body:
            raise TemplateError(f"book/port/templates.yaml：{spelling} 的 {what} 写出 {a!r}，对照表的行 "
                                f"{row_anchor} 运行过的 burn 代码里没有这一段：生成的代码只能来自行")
    have = imported(row["module"])
    for u in uses:
        for path, name in use_names(u):
            # The field's type is the one its config's init() returns: the compiler checks it
            # (every fixture's crate is built in the tests).
            if name != skip_type and (path, name) not in have:
                raise TemplateError(f"book/port/templates.yaml：{spelling} 的 use {path}::{name} 不在行 "
                                    f"{row_anchor} 的 use 行里")


def _values(t: dict, row_anchor: str, rows: dict, example: dict | None = None) -> dict:
    v = dict(defaults(t.get("sig", [])))
    last = t["spelling"].rpartition(".")[2]
    v.update(row_args(rows[row_anchor]["torch"], t.get("sig", []), last) if row_anchor in rows else {})
    v.update(t.get("example") or {})
    v.update(example or {})
    v.setdefault("device", "d")
    v.setdefault("m", "m")
    v.setdefault("x", "x")
    rank_in = v.get("rank_in")
    if rank_in is not None:  # flatten: the end dim and the rank it gives
        start = v.get("start_dim", 0)
        end = v.get("end_dim", -1)
        end = end % rank_in
        v["end_dim"], v["rank_out"] = end, rank_in - (end - start)
    if "shape" in v and isinstance(v.get("shape"), (int, str)):
        pass
    return v


def _view_values(rows, anchor):
    # x.view(2, 6): the shape as the generator writes it.
    a = row_args(rows[anchor]["torch"], ["*shape"])
    return {"shape": a.get("shape", "")}


def check(t: dict, spelling: str, rows: dict) -> list[str]:
    """Every piece of one template against its rows; the anchors it stands on."""
    used = [t["row"]]
    vals = _values(t, t["row"], rows)
    if spelling in ("Tensor.view",):
        text = rows[t["row"]]["torch"].split("  #")[0]
        vals["shape"] = ", ".join(x.strip() for x in text[text.index("(") + 1:text.rindex(")")].split(","))
    if t.get("infer_row"):
        text = rows[t["infer_row"]]["torch"].split("  #")[0]
        shape = ", ".join(x.strip() for x in text[text.index("(") + 1:text.rindex(")")].split(","))
        _check_piece(spelling, "形状里的 -1", t["code"], [], t["infer_row"], rows, dict(vals, shape=shape))
        used.append(t["infer_row"])
    for part, piece in (t.get("parts") or {}).items():
        _check_piece(spelling, f"片段 {part}", piece, [], t["row"], rows, vals)
        vals[part] = part  # the row names it so: let options = …
    if t.get("dim_row"):
        dv = _values(t, t["dim_row"], rows)
        _check_piece(spelling, "带 dim 的写法", t["dim_code"], [], t["dim_row"], rows, dv)
        used.append(t["dim_row"])
    if t.get("note_row") and t["note_row"] not in rows:
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的 note_row {t['note_row']} 不在对照表里")
    head = t.get("init", "") + t.get("build", "") + (t.get("code", "") if "init" in t else "")
    if "init" in t:
        _check_piece(spelling, "构造", head, t.get("use", []), t["row"], rows, vals, t.get("type"))
        if "forward" in t:
            _check_piece(spelling, "forward", t["forward"], [], t["row"], rows, vals)
    else:
        _check_piece(spelling, "调用", t["code"], t.get("use", []), t["row"], rows, vals)
    for name, o in (t.get("options") or {}).items():
        anchor = o["row"]
        if anchor not in rows:
            raise TemplateError(f"book/port/templates.yaml：{spelling} 的参数 {name} 指向的行 {anchor} 不在对照表里")
        ov = _values(t, anchor, rows, o.get("example"))
        piece = o.get("replace") or o["code"]
        if piece:
            _check_piece(spelling, f"参数 {name}", piece, o.get("use", []), anchor, rows, ov)
        elif rows[anchor]["verdict"] == "differs":
            raise TemplateError(f"book/port/templates.yaml：{spelling} 的参数 {name} 用了结果「不同」的行 {anchor}")
        if o.get("default_row"):
            _check_piece(spelling, f"参数 {name} 的默认值", "", [], o["default_row"], rows, {})
        fixes = o.get("fixes")
        if fixes and fixes not in rows.get(anchor, {}).get("fixes", []):
            raise TemplateError(f"book/port/templates.yaml：{spelling} 的参数 {name} 说它改的是 {fixes}，"
                                f"但 {fixes} 的 fix 不是 {anchor}")
        used.append(anchor)
    if t.get("stack"):
        used += _check_stack(t, spelling, rows)
    for name, p in (t.get("pieces") or {}).items():
        _check_piece(spelling, f"片段 {name}", p["code"], p.get("use", []), p["row"], rows,
                     dict({"device": "d", "m": "m", "x": "x"}, **p["example"]))
        used.append(p["row"])
    if t.get("load"):
        used += _check_load(t["load"], spelling, rows)
    return used


def _check_stack(t: dict, spelling: str, rows: dict) -> list[str]:
    """Several layers (nn.LSTM's num_layers): with the row's own arguments, the array the
    template builds (the first layer from init, the others from next), its type and the call
    of one layer must each stand in the row."""
    s, anchor = t["stack"], t["stack"]["row"]
    if anchor not in rows:
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的多层写法指向的行 {anchor} 不在对照表里")
    v = _values(t, anchor, rows)
    n = v.get("num_layers")
    if not isinstance(n, int) or n < 2:
        raise TemplateError(f"book/port/templates.yaml：{spelling} 的多层写法：行 {anchor} 的 PyTorch 写法"
                            f"（{rows[anchor]['torch']}）里没有 num_layers ≥ 2")
    layers = [fill(t["init"] + t["build"], v)] + [fill(s["next"] + t["build"], v)] * (n - 1)
    _check_piece(spelling, "多层的构造", s["init"], t.get("use", []), anchor, rows,
                 dict(v, items=" ".join(x + "," for x in layers)), t.get("type"))
    _check_piece(spelling, "多层的类型", s["type"], [], anchor, rows, v)
    _check_piece(spelling, "逐层的 forward", s["call"], [], anchor, rows, dict(v, **s["example"]))
    return [anchor]


def _check_load(ld: dict, spelling: str, rows: dict) -> list[str]:
    """Loading what PytorchStore cannot (an LSTM's stacked gates): the row's helpers, its reads
    of the four tensors (their names made from `tensors` as the generator makes them) and its
    gate assignments must stand in the row as written."""
    anchor = ld["row"]
    ex = dict(ld["example"])
    for var, _rank, key in ld["tensors"]:
        ex[var] = f'"{ex["prefix"]}.{key}{ex["layer"]}"'
    for part in ("read_fn", "linear_fn", "split", "set"):
        _check_piece(spelling, f"载入的 {part}", ld[part], ld.get("use", []) if part == "read_fn" else [],
                     anchor, rows, ex)
    return [anchor]


def build(book: Book, site_url: str) -> dict:
    """The generator's rules: the checked templates with their rows' links."""
    data = yaml.safe_load(TEMPLATES.read_text(encoding="utf-8"))
    rows = _rows(book)
    out = {"version": VERSION, "aliases": scan_rules.aliases(), "site": site_url.rstrip("/") + "/"}
    for section in ("modules", "calls", "training"):
        kept = {}
        for spelling, t in data[section].items():
            if "same_as" in t:
                continue
            if "todo" in t:  # no template: the generator names the row
                _row(spelling, t["row"], rows)
                kept[spelling] = t
                continue
            check(dict(t, spelling=spelling), spelling, rows)
            if "step" in t:
                _check_piece(spelling, "step", t["step"], [], t["row"], rows, {"sched": "sched"})
            kept[spelling] = t
        for spelling, t in data[section].items():
            if "same_as" in t:
                if t["same_as"] not in kept:
                    raise TemplateError(f"book/port/templates.yaml：{spelling} 的 same_as {t['same_as']} 不存在")
                kept[spelling] = kept[t["same_as"]]
        out[section] = kept
    ops = {}
    for op, t in data["operators"].items():
        _check_piece(f"运算 {op}", "运算", t["code"], [], t["row"], rows, dict(t["example"]))
        ops[op] = t
    out["operators"] = ops
    out["containers"] = {}
    for spelling, t in data["containers"].items():
        ex = dict(t["example"])
        for key in ("code", "zeros", "access"):
            if key in t:
                _check_piece(spelling, key, t[key], t.get("use", []) if key == "code" else [], t["row"], rows, ex)
        out["containers"][spelling] = t
    st = data["step"]
    _check_piece("优化器的一步", "backward", st["code"], [], st["row"], rows, dict(st["example"]))
    _check_piece("优化器的一步", "step", st["update"], [], st["row"], rows, dict(st["example"]))
    out["step"] = st
    for what, t in data["loop"].items():
        for r in t["rows"]:
            _row(f"训练循环的 {what}", r, rows)
    out["loop"] = data["loop"]
    sv = data["save"]
    _check_piece("torch.save", "save", sv["code"], sv["use"], sv["row"], rows, dict(sv["example"]))
    out["save"] = sv
    out["verdicts"] = {a: r["verdict"] for a, r in rows.items()}
    out["crate"] = crate.files(book)
    out["tol"] = TOL
    return out
