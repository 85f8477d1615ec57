"""experiments/compare.py: the comparator a reader runs, as a module and as a CLI."""
import importlib.util
import json
import struct
import subprocess

import pytest

from scratch import REPO, VENV_PY

SCRIPT = REPO / "experiments" / "compare.py"


def _load():
    spec = importlib.util.spec_from_file_location("compare_under_test", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


cmp = _load()


def f32_next(x: float, steps: int = 1) -> float:
    """The f32 `steps` representable values above the (positive) f32 x."""
    (i,) = struct.unpack("<I", struct.pack("<f", x))
    (y,) = struct.unpack("<f", struct.pack("<I", i + steps))
    return y


def cli(tmp_path, a, b, *args):
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    pa.write_text(json.dumps(a), encoding="utf-8")
    pb.write_text(json.dumps(b), encoding="utf-8")
    p = subprocess.run([str(VENV_PY), "experiments/compare.py", str(pa), str(pb), *args],
                       cwd=REPO, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def row(report, field):
    (r,) = [r for r in report["fields"] if r["field"] == field]
    return r


# --- compare() -------------------------------------------------------------------------

def test_within_tolerance_is_ok():
    r = cmp.compare({"x": [1.0, 2.0]}, {"x": [1.0, 2.0 + 5e-7]}, 1e-6)
    assert r["ok"] is True
    assert r["worst_field"] == "x"
    assert r["worst"] == pytest.approx(5e-7, rel=1e-3)


def test_over_tolerance_is_mismatch():
    r = cmp.compare({"x": [1.0, 2.0]}, {"x": [1.0, 2.0 + 2e-6]}, 1e-6)
    assert r["ok"] is False
    assert row(r, "x")["error"] is None  # a plain numeric miss, not a structural error
    assert row(r, "x")["at"] == 1


def test_diff_equal_to_tolerance_is_ok():
    # The docstring says "within": the boundary itself passes.
    r = cmp.compare({"x": 1.0}, {"x": 1.5}, 0.5)
    assert r["ok"] is True


@pytest.mark.parametrize("a, b", [
    ([1.0, 2.0], [1.0, 2.0, 3.0]),
    ([[1.0, 2.0]], [1.0, 2.0]),
    ([1.0, 2.0], [[1.0], [2.0]]),
])
def test_shape_mismatch_even_with_huge_tolerance(a, b):
    r = cmp.compare({"t": a}, {"t": b}, 1e30)
    assert r["ok"] is False
    assert row(r, "t")["error"].startswith("shape ")


@pytest.mark.parametrize("a, b", [
    ([[1.0], [2.0, 3.0]], [[1.0], [2.0, 3.0, 4.0]]),  # B has one more element
    ([[1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0]]),       # same numbers, other nesting
])
def test_ragged_lists_of_different_shape_are_a_mismatch(a, b):
    # Both sides are "ragged", so _shape() calls them equal and zip() drops B's extras.
    r = cmp.compare({"t": a}, {"t": b}, 1e30)
    assert r["ok"] is False, f"{a} and {b} compared equal"
    assert r["structural"] == ["t: ragged lists of different shapes"]


def test_equal_ragged_lists_match_and_are_not_structural():
    # Batches of 4, 4 and 2: ragged, and the same on both sides.
    t = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    r = cmp.compare({"t": t}, {"t": [list(x) for x in t]}, 0.0)
    assert r["ok"] is True and r["structural"] == []


def test_missing_fields_are_structural_value_differences_are_not():
    r = cmp.compare({"a": 1, "b": [1.0]}, {"b": [2.0], "c": 3}, 0.0, ["a", "b", "c"])
    assert r["structural"] == ["a: missing in B", "c: missing in A"]
    assert row(r, "b")["max_diff"] == 1.0 and "structural" not in row(r, "b")


@pytest.mark.parametrize("a, b", [(1, 1.0), ([1.0, 2], [1.0, 2.0]), (True, 1)])
def test_dtype_mismatch(a, b):
    r = cmp.compare({"v": a}, {"v": b}, 1e30)
    assert r["ok"] is False
    assert row(r, "v")["error"].startswith("dtype ")


def test_integer_value_mismatch_is_exact():
    r = cmp.compare({"n": [3, 4]}, {"n": [3, 5]}, 1e30)
    assert r["ok"] is False
    assert row(r, "n")["error"] == "1 of 2 values differ, first at [1]: 4 != 5"
    assert cmp.compare({"n": [3, 4]}, {"n": [3, 4]}, 0.0)["ok"] is True


def test_exact_fields_count_every_differing_value_and_say_so():
    a = {"n": [1, 2, 3, 4], "flag": [True, False], "x": [0.5]}
    b = {"n": [1, 0, 3, 0], "flag": [True, True], "x": [0.5]}
    r = cmp.compare(a, b, 0.0)
    assert (row(r, "n")["differ"], row(r, "n")["first"]) == (2, {"index": 1, "a": 2, "b": 0})
    assert row(r, "flag")["error"] == "1 of 2 values differ, first at [1]: False != True"
    text = cmp.format_report(r).splitlines()
    # No max|diff| column for exact values: 0.00e+00 there would hide the mismatch.
    assert text[1].split() == ["n", "n=", "4", "int,", "exact", "2", "of", "4", "values", "differ,",
                               "first", "at", "[1]:", "2", "!=", "0"]
    assert "max|diff|" not in text[0] and "bool, exact" in text[0]
    assert text[-1] == "worst=0.00e+00 tol=0; exact values differ in 2 fields: flag, n MISMATCH"


def test_the_verdict_names_the_worst_fields_own_tolerance():
    r = cmp.compare({"a": [1.0], "b": [1.0]}, {"a": [1.0 + 2e-6], "b": [1.0 + 1e-7]}, 1e-6,
                    tols={"a": 1e-5})
    assert r["ok"] is True
    last = cmp.format_report(r).splitlines()[-1]
    assert last.startswith("worst=2.00e-06 in a (tol=1e-05 there; own tol on 1 field, 1e-06 elsewhere)")


def test_string_value_mismatch():
    r = cmp.compare({"s": "relu"}, {"s": "gelu"}, 1e30)
    assert r["ok"] is False and "value" in row(r, "s")["error"]


def test_missing_field_in_b():
    r = cmp.compare({"a": 1.0, "b": {"c": 2.0}}, {"a": 1.0}, 1e30)
    assert r["ok"] is False
    assert row(r, "b.c")["error"] == "missing in B"
    assert row(r, "a")["error"] is None


def test_fields_limits_the_walk():
    a = {"x": 1.0, "y": 5.0, "z": {"w": [1.0]}}
    b = {"x": 1.0, "y": 9.0, "z": {"w": [1.0]}}
    assert cmp.compare(a, b, 1e-6)["ok"] is False
    r = cmp.compare(a, b, 1e-6, ["x", "z.w"])
    assert r["ok"] is True
    assert [x["field"] for x in r["fields"]] == ["x", "z.w"]


def test_fields_root_missing_in_a():
    r = cmp.compare({"x": 1.0}, {"x": 1.0}, 1e-6, ["nope"])
    assert r["ok"] is False
    assert row(r, "nope")["error"] == "missing in A"


def test_keys_with_dots_are_found():
    a = {"grads": {"fc1.weight": [1.0]}}
    b = {"grads": {"fc1.weight": [1.0 + 1e-3]}}
    r = cmp.compare(a, b, 1e-6, ["grads.fc1.weight"])
    assert [x["field"] for x in r["fields"]] == ["grads.fc1.weight"]
    assert r["ok"] is False


def test_nan_matches_nan_but_not_a_number():
    assert cmp.compare({"v": [float("nan")]}, {"v": [float("nan")]}, 0.0)["ok"] is True
    assert cmp.compare({"v": [float("nan")]}, {"v": [1.0]}, 1e30)["ok"] is False


def test_empty_output_is_not_ok():
    # Nothing compared must not read as "all fields agree".
    assert cmp.compare({}, {}, 1.0)["ok"] is False


def test_ulps_of_neighbouring_f32s_is_one():
    for x in (1.0, 0.1, 3.0e-5, 1.0e30):
        x32 = struct.unpack("<f", struct.pack("<f", x))[0]
        assert cmp.ulps(x32, f32_next(x32)) == 1
        assert cmp.ulps(-x32, -f32_next(x32)) == 1
    assert cmp.ulps(2.0, 2.0) == 0
    assert cmp.ulps(1.0, f32_next(1.0, 7)) == 7


def test_ulps_across_zero_and_out_of_range():
    tiny = struct.unpack("<f", struct.pack("<I", 1))[0]  # smallest positive subnormal
    assert cmp.ulps(tiny, -tiny) == 2
    assert cmp.ulps(0.0, -0.0) == 0
    assert cmp.ulps(1e300, 1.0) == float("inf")


def test_max_ulps_at_record():
    b2 = f32_next(2.0, 3)
    r = cmp.compare({"p": [1.0, 2.0], "q": [5.0]}, {"p": [1.0, b2], "q": [5.0]}, 1e-3)
    assert r["ok"] is True
    assert r["max_ulps"] == 3
    assert r["max_ulps_field"] == "p"
    at = r["max_ulps_at"]
    assert at["index"] == 1 and at["a"] == 2.0 and at["b"] == b2
    assert at["diff"] == pytest.approx(b2 - 2.0)
    assert at["ulp"] == f32_next(2.0) - 2.0  # one f32 step at 2.0: 2**-22
    assert at["field_max_abs"] == 2.0


# --- the CLI ---------------------------------------------------------------------------

def test_cli_ok(tmp_path):
    code, out, _ = cli(tmp_path, {"x": [1.0, 2.0]}, {"x": [1.0, 2.0 + 1e-7]}, "1e-6")
    assert code == 0
    assert out.strip().splitlines()[-1].endswith("OK")
    assert "MISMATCH" not in out


def test_cli_mismatch(tmp_path):
    code, out, _ = cli(tmp_path, {"x": [1.0, 2.0]}, {"x": [1.0, 2.1]}, "1e-6")
    assert code == 1
    last = out.strip().splitlines()[-1]
    assert last.endswith("MISMATCH")
    assert "worst=1.00e-01" in last and "tol=1e-06" in last


def test_cli_default_tolerance_is_1e_6(tmp_path):
    assert cli(tmp_path, {"x": 1.0}, {"x": 1.0 + 5e-7})[0] == 0
    assert cli(tmp_path, {"x": 1.0}, {"x": 1.0 + 5e-6})[0] == 1


@pytest.mark.parametrize("a, b", [([1, 2], [1, 2, 3]), ([[1, 2]], [1, 2])])
def test_cli_shape_mismatch(tmp_path, a, b):
    code, out, _ = cli(tmp_path, {"t": a}, {"t": b}, "1e30")
    assert code == 1
    assert "shape" in out and out.strip().endswith("MISMATCH")


def test_cli_dtype_and_missing(tmp_path):
    code, out, _ = cli(tmp_path, {"i": 1, "m": 2.0}, {"i": 1.0}, "1e30")
    assert code == 1
    assert "dtype int != float" in out
    assert "missing in B" in out


def test_cli_fields(tmp_path):
    a, b = {"x": 1.0, "y": 5.0}, {"x": 1.0, "y": 9.0}
    assert cli(tmp_path, a, b, "1e-6")[0] == 1
    code, out, _ = cli(tmp_path, a, b, "1e-6", "--fields", "x")
    assert code == 0
    assert out.splitlines()[0].startswith("x ")
    assert len(out.strip().splitlines()) == 2  # one field line and the verdict


def test_cli_per_field_lines(tmp_path):
    a = {"w": [1.0, 2.0, 3.0], "b": 0.5}
    code, out, _ = cli(tmp_path, a, a, "1e-6")
    lines = out.strip().splitlines()
    assert code == 0
    assert len(lines) == 3
    for ln, field, n in zip(lines, ["b", "w"], [1, 3]):
        assert ln.startswith(field)
        assert f"n={n:3}" in ln
        assert "max|diff|=0.00e+00" in ln


def test_cli_bad_usage(tmp_path):
    p = subprocess.run([str(VENV_PY), "experiments/compare.py", "only-one.json"],
                       cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 2
    assert "compare.py A.json B.json" in p.stderr


@pytest.mark.parametrize("b_text, tol", [
    (None, "1e-6"),          # B does not exist
    ("not json", "1e-6"),    # B is not JSON
    ('{"x": 1.0}', "abc"),   # the tolerance is not a number
])
def test_cli_unreadable_input_is_bad_usage_not_mismatch(tmp_path, b_text, tol):
    # Exit 1 means MISMATCH; a script that checks it must not mistake a typo for a result.
    pa = tmp_path / "a.json"
    pa.write_text('{"x": 1.0}', encoding="utf-8")
    pb = tmp_path / "b.json"
    if b_text is not None:
        pb.write_text(b_text, encoding="utf-8")
    p = subprocess.run([str(VENV_PY), "experiments/compare.py", str(pa), str(pb), tol],
                       cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 2, p.stdout + p.stderr


def test_cli_prints_the_tolerance_it_used(tmp_path):
    # worst=2.60e-04 against tol 2.5e-4 must not read "tol=3e-04 MISMATCH".
    code, out, _ = cli(tmp_path, {"x": 1.0}, {"x": 1.00026}, "2.5e-4")
    assert code == 1
    shown = out.strip().splitlines()[-1].split("tol=")[1].split()[0]
    assert float(shown) == 2.5e-4, shown


# --- per-field tolerances ---------------------------------------------------------------

def test_own_tolerance_applies_to_a_field_and_everything_under_it():
    a = {"loss": {"step01": 1.0, "step02": 1.0}, "params": {"w": [1.0, 2.0]}}
    b = {"loss": {"step01": 1.0, "step02": 1.0 + 3e-6}, "params": {"w": [1.0, 2.0 + 5e-6]}}
    report = cmp.compare(a, b, 1e-6, tols={"loss.step02": 4e-6, "params": 1e-5})
    assert report["ok"]
    assert row(report, "loss.step02")["tol"] == 4e-6
    assert row(report, "params.w")["tol"] == 1e-5
    assert "tol" not in row(report, "loss.step01")  # the global one
    tight = cmp.compare(a, b, 1e-6, tols={"loss.step02": 2e-6, "params": 1e-5})
    assert not tight["ok"] and tight["over"] == ["loss.step02"]


def test_cli_tols_shows_each_own_tolerance_and_bites(tmp_path):
    a, b = {"x": 1.0, "y": 1.0}, {"x": 1.0 + 3e-6, "y": 1.0}
    code, out, _ = cli(tmp_path, a, b, "1e-6", "--tols", '{"x": 1e-5}')
    assert code == 0 and "tol=1e-05" in out.splitlines()[0]
    code, out, _ = cli(tmp_path, a, b, "1e-6", "--tols", '{"x": 1e-6}')
    assert code == 1 and out.rstrip().endswith("MISMATCH")
    code, _, err = cli(tmp_path, a, b, "1e-6", "--tols", "not json")
    assert code == 2 and "--tols" in err
