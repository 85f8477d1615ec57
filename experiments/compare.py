"""Compare two experiment outputs (JSON), field by field.

    python experiments/compare.py A.json B.json [TOL] [--fields a,b.c] [--tols '{"a.b": 1e-5}']
                                  [--drop seconds]

Prints, per leaf field, the count of numbers and the max |diff|, then the worst diff and
the tolerance, and OK or MISMATCH. --tols gives some fields (and everything under them)
a tolerance of their own; the row then shows it. Exit code 0 on OK, 1 on MISMATCH, 2 on bad usage.
Floats match within the absolute tolerance; integers, booleans, strings, shapes and dtypes
(int vs float) must be exactly equal, and for those the report counts the values that differ.
--drop leaves top-level fields out of both sides first: what the manifest declares volatile
(timings), which the book keeps apart and never compares.

A field missing on one side, or ragged lists (rows of different lengths) that do not line up,
is a structural error, not a difference in values: the report lists those under "structural".
"""
import json
import math
import struct
import sys

DEFAULT_TOL = 1e-6


def _f32_bits(x):
    # Ordered integer for the f32 nearest to x, so that neighbouring f32s differ by 1.
    (i,) = struct.unpack("<i", struct.pack("<f", x))
    return i if i >= 0 else -(i & 0x7FFFFFFF)


def ulps(x, y):
    if math.isnan(x) or math.isnan(y):
        return 0 if math.isnan(x) and math.isnan(y) else math.inf
    try:
        return abs(_f32_bits(x) - _f32_bits(y))
    except OverflowError:  # outside the f32 range: no meaningful ulp count
        return math.inf


def f32_spacing(x):
    """The gap between the f32 nearest to |x| and the next f32 up: one ulp there."""
    (i,) = struct.unpack("<I", struct.pack("<f", abs(x)))
    (nxt,) = struct.unpack("<f", struct.pack("<I", i + 1))
    (cur,) = struct.unpack("<f", struct.pack("<I", i))
    return nxt - cur


def _shape(x):
    if isinstance(x, list):
        inner = [_shape(v) for v in x]
        if len(set(inner)) > 1:
            # Ragged: keep every sub-shape, so that two ragged lists match only if equal.
            return (len(x), ("ragged", tuple(inner)))
        return (len(x),) + (inner[0] if inner else ())
    return ()


def _flat(x):
    if isinstance(x, list):
        for v in x:
            yield from _flat(v)
    else:
        yield x


def _kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if v is None:
        return "null"
    return type(v).__name__


def _leaves(x, path):
    if isinstance(x, dict):
        for k in sorted(x):
            yield from _leaves(x[k], f"{path}.{k}" if path else k)
    else:
        yield path, x


def _get(x, path):
    # Dotted paths, but keys may contain dots themselves ("fc1.weight"): try longest keys first.
    if path == "":
        return x
    if isinstance(x, dict):
        parts = path.split(".")
        for i in range(len(parts), 0, -1):
            key = ".".join(parts[:i])
            if key in x:
                return _get(x[key], ".".join(parts[i:]))
    raise KeyError(path)


def _ragged(shape):
    return any(isinstance(d, tuple) and d[:1] == ("ragged",) for d in shape)


def compare_field(path, x, y):
    """One leaf field: returns a dict with n, max_diff, max_ulps and an error (or None)."""
    row = {"field": path, "n": 0, "max_diff": 0.0, "max_ulps": 0, "error": None}
    sx, sy = _shape(x), _shape(y)
    if sx != sy:
        if _ragged(sx) or _ragged(sy):
            # Rows of different lengths that do not line up: the outputs' structure differs.
            row["error"], row["structural"] = "ragged lists of different shapes", True
        else:
            row["error"] = f"shape {list(sx)} != {list(sy)}"
        return row
    fx, fy = list(_flat(x)), list(_flat(y))
    row["n"] = len(fx)
    kinds = sorted({_kind(v) for v in fx})
    row["kind"] = kinds[0] if len(kinds) == 1 else "mixed" if kinds else "empty"
    for i, (p, q) in enumerate(zip(fx, fy)):
        kp, kq = _kind(p), _kind(q)
        if kp != kq:
            row["error"] = f"dtype {kp} != {kq} at [{i}]"
            return row
        if kp == "float":
            row["max_abs"] = max(row.get("max_abs", 0.0), abs(p))
            d = 0.0 if (math.isnan(p) and math.isnan(q)) or p == q else abs(p - q)
            if math.isnan(d):
                d = math.inf
            if d > row["max_diff"]:
                row["max_diff"], row["at"], row["a"], row["b"] = d, i, p, q
            u = ulps(p, q)
            if u > row["max_ulps"]:
                row["max_ulps"] = u
                row["ulps_at"] = {"index": i, "a": p, "b": q, "diff": abs(p - q),
                                  "ulp": f32_spacing(p)}
        elif p != q:
            # Exact values (int, bool, str): how many differ, and the first one.
            row["differ"] = row.get("differ", 0) + 1
            row.setdefault("first", {"index": i, "a": p, "b": q})
    if row.get("differ"):
        f = row["first"]
        row["error"] = (f"{row['differ']} of {row['n']} values differ, "
                        f"first at [{f['index']}]: {f['a']!r} != {f['b']!r}")
    return row


def _tol_for(path, tol, tols):
    best = None
    for prefix in tols or {}:
        if path == prefix or path.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    return tols[best] if best is not None else tol


def compare(a, b, tol=DEFAULT_TOL, fields=None, tols=None):
    """Walk both outputs; fields limits the walk to these (dotted) paths.

    tols maps a field path (or a prefix of it) to its own tolerance.
    """
    rows = []
    roots = fields if fields else [""]
    for root in roots:
        try:
            xa = _get(a, root)
        except KeyError:
            rows.append({"field": root, "n": 0, "max_diff": 0.0, "max_ulps": 0,
                         "error": "missing in A", "structural": True})
            continue
        for path, x in _leaves(xa, root):
            try:
                y = _get(b, path)
            except KeyError:
                rows.append({"field": path, "n": 0, "max_diff": 0.0, "max_ulps": 0,
                             "error": "missing in B", "structural": True})
                continue
            rows.append(compare_field(path, x, y))
    for r in rows:
        own = _tol_for(r["field"], tol, tols)
        if own != tol:
            r["tol"] = own
    worst = max(rows, key=lambda r: r["max_diff"], default=None)
    most_ulps = max(rows, key=lambda r: r["max_ulps"], default=None)
    over = [r for r in rows if r["max_diff"] > r.get("tol", tol)]
    ok = bool(rows) and all(r["error"] is None for r in rows) and not over
    return {
        "fields": rows,
        "worst": worst["max_diff"] if worst else 0.0,
        "worst_field": worst["field"] if worst else None,
        "max_ulps": most_ulps["max_ulps"] if most_ulps else 0,
        "max_ulps_field": most_ulps["field"] if most_ulps else None,
        "max_ulps_at": dict(most_ulps.get("ulps_at", {}), field_max_abs=most_ulps.get("max_abs", 0.0))
        if most_ulps else {},
        "tol": tol,
        "ok": ok,
        "over": [r["field"] for r in over],
        "structural": [f"{r['field']}: {r['error']}" for r in rows if r.get("structural")],
    }


def format_report(report):
    """One line per field, then the verdict. A float field shows its max |diff| (and its own
    tolerance, where it has one); a field of exact values (int, bool, str) says so, and on a
    mismatch how many of its values differ and the first of them."""
    width = max([24] + [len(r["field"]) for r in report["fields"]])
    lines = []
    for r in report["fields"]:
        line = f"{r['field']:{width}} n={r['n']:3}  "
        if r.get("kind") in ("int", "bool", "str"):
            line += f"{r['kind']}, exact"
        else:
            line += f"max|diff|={r['max_diff']:.2e}"
            if "tol" in r:
                line += f"  tol={r['tol']:g}"
        if r["error"]:
            line += f"  {r['error']}"
        lines.append(line)
    verdict = "OK" if report["ok"] else "MISMATCH"
    rows = report["fields"]
    own = [r for r in rows if "tol" in r]
    if own:
        worst = next((r for r in rows if r["field"] == report["worst_field"]), {})
        n = len(own)
        tol = (f"tol={worst.get('tol', report['tol']):g} there; own tol on {n} field{'s' if n > 1 else ''}, "
               f"{report['tol']:g} elsewhere")
        summary = f"worst={report['worst']:.2e} in {report['worst_field']} ({tol})"
    else:
        summary = f"worst={report['worst']:.2e} tol={report['tol']:g}"
    exact = [r["field"] for r in rows if r.get("differ")]
    if exact:
        summary += f"; exact values differ in {len(exact)} field{'s' if len(exact) > 1 else ''}: {', '.join(exact)}"
    lines.append(f"{summary} {verdict}")
    return "\n".join(lines) + "\n"


def main(argv):
    fields, tols, drop = None, None, []
    args = []
    it = iter(argv)
    for arg in it:
        if arg == "--fields":
            fields = [f for f in next(it, "").split(",") if f]
        elif arg == "--drop":
            drop = [f for f in next(it, "").split(",") if f]
        elif arg == "--tols":
            try:
                tols = {k: float(v) for k, v in json.loads(next(it, "")).items()}
            except (ValueError, AttributeError) as e:
                sys.stderr.write(f"compare.py: --tols needs a JSON object of numbers: {e}\n")
                return 2
        else:
            args.append(arg)
    if len(args) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fa, open(args[1], encoding="utf-8") as fb:
            a, b = json.load(fa), json.load(fb)
        for side in (a, b):
            for k in drop:
                if isinstance(side, dict):
                    side.pop(k, None)
        tol = float(args[2]) if len(args) == 3 else DEFAULT_TOL
    except (OSError, ValueError) as e:
        # Bad input is a usage error (2), never a MISMATCH (1).
        sys.stderr.write(f"compare.py: {e}\n")
        return 2
    report = compare(a, b, tol, fields, tols)
    sys.stdout.write(format_report(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
