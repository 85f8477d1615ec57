"""book.checking.contract on real runs: each expectation both holds and breaks, with a clear message.

The programs are the scratch crates and scripts of tests/scratch.py; manifests go under adhoc/
so that build() tests, which discover experiments/, never see them.
"""
import pytest

from book.checking import contract
from book.pipeline.build import build
from book.experiments.manifest import load
from book.errors import BookError
from scratch import log_states, manifest, run_manifest, scratch_book


@pytest.fixture
def run(cargo_ws, tmp_path):
    book = scratch_book(cargo_ws, tmp_path / "out")

    def go(exp_id, body):
        return run_manifest(book, manifest(cargo_ws, exp_id, body, where="adhoc"))
    return go


def one_problem(problems, exp_id, *words):
    assert len(problems) == 1, problems
    (p,) = problems
    assert f"实验 {exp_id}" in p
    for w in words:
        assert w in p, (w, p)
    return p


# --- python -----------------------------------------------------------------------------

def test_python_ok_holds(run):
    res, problems = run("py-ok", "python:\n  script: ok.py\n")
    assert problems == []
    assert res["outcome"]["python"]["actual"]["status"] == "ok"
    assert res["files"]["python.json"] == '{\n "x": 1.0\n}\n'


def test_python_ok_broken_by_exception(run):
    res, problems = run("py-ok-raises", "page: p1\npython:\n  script: raises.py\n  expect: ok\n")
    one_problem(problems, "py-ok-raises", "（页面 p1）", "期望正常结束", "实际抛出 ValueError")
    assert "ValueError: bad input" in res["files"]["python.stderr.txt"]


def test_python_exception_holds(run):
    res, problems = run("py-exc", "python:\n  script: raises.py\n  expect: {exception: ValueError}\n")
    assert problems == []
    assert res["outcome"]["python"]["actual"]["exception"] == "ValueError"


def test_python_exception_with_a_multiline_message_holds(run):
    # The exception type is on the line after the last frame, not on the last line.
    res, problems = run("py-exc-long",
                        "python:\n  script: raises_long.py\n  expect: {exception: ValueError}\n")
    assert res["outcome"]["python"]["actual"].get("exception") == "ValueError"
    assert problems == []


def test_python_exception_broken_by_clean_run(run):
    _, problems = run("py-exc-fine", "python:\n  script: ok.py\n  expect: {exception: ValueError}\n")
    one_problem(problems, "py-exc-fine", "期望抛出 ValueError", "实际正常结束")


def test_python_exception_broken_by_other_exception(run):
    _, problems = run("py-exc-other", "python:\n  script: raises.py\n  expect: {exception: KeyError}\n")
    one_problem(problems, "py-exc-other", "期望抛出 KeyError", "实际抛出 ValueError")


# --- burn: ok, panic, compile error, timeout ---------------------------------------------

def test_burn_ok_holds(run):
    res, problems = run("rs-ok", "burn:\n  crate: okjson\n")
    assert problems == []
    assert res["outcome"]["burn"]["actual"] == {"status": "ok", "exit_code": 0}
    assert res["files"]["burn.json"] == '{\n "x": 1.0\n}\n'


def test_burn_ok_broken_by_panic(run):
    res, problems = run("rs-ok-panics", "burn:\n  crate: panics\n")
    one_problem(problems, "rs-ok-panics", "burn 侧期望正常结束", "实际panic：boom: index out of range")
    assert "panicked at" in res["files"]["burn.stderr.txt"]


def test_burn_panic_holds(run):
    res, problems = run("rs-panic", 'burn:\n  crate: panics\n  expect: {panic: "boom"}\n')
    assert problems == []
    assert res["outcome"]["burn"]["actual"]["panic"] == "boom: index out of range"


def test_burn_panic_broken_by_no_panic(run):
    _, problems = run("rs-panic-none", 'burn:\n  crate: okjson\n  expect: {panic: "boom"}\n')
    one_problem(problems, "rs-panic-none", "期望panic，信息含 'boom'", "实际正常结束")


def test_burn_panic_broken_by_wrong_text(run):
    _, problems = run("rs-panic-text", 'burn:\n  crate: panics\n  expect: {panic: "overflow"}\n')
    one_problem(problems, "rs-panic-text", "期望panic，信息含 'overflow'",
                "实际panic：boom: index out of range")


def test_burn_compile_error_holds(run):
    res, problems = run("rs-ce", "burn:\n  crate: moved\n  expect: {compile_error: E0382}\n")
    assert problems == []
    assert res["outcome"]["burn"]["actual"] == {"status": "compile_error", "codes": ["E0382"]}
    diag = res["files"]["burn.diagnostics.txt"]
    assert diag.startswith("error[E0382]: ")
    assert "crates/moved/src/main.rs" in diag and "$DIR" not in diag.split("\n")[1]


def test_burn_compile_error_broken_by_clean_build(run):
    _, problems = run("rs-ce-builds", "burn:\n  crate: okjson\n  expect: {compile_error: E0382}\n")
    one_problem(problems, "rs-ce-builds", "期望编译错误 E0382", "实际正常结束")


def test_burn_compile_error_broken_by_other_code(run):
    _, problems = run("rs-ce-code", "burn:\n  crate: moved\n  expect: {compile_error: E0308}\n")
    one_problem(problems, "rs-ce-code", "期望编译错误 E0308", "实际编译错误 E0382")


def test_burn_ok_broken_by_compile_error(run):
    _, problems = run("rs-ok-ce", "burn:\n  crate: moved\n")
    one_problem(problems, "rs-ok-ce", "期望正常结束", "实际编译错误 E0382")


OFFLINE = "burn:\n  crate: fetcher\n  offline: true\n  expect: {build_script_error: bundler}\n"


def test_burn_build_script_error_holds_offline(run):
    # The dependency's build.rs connects through the proxy: burn.offline points it at a closed port.
    res, problems = run("rs-bse", OFFLINE)
    assert problems == []
    assert res["outcome"]["burn"]["actual"] == {"status": "build_script_error", "build_script": "bundler"}
    err = res["files"]["burn.stderr.txt"]
    assert "failed to run custom build command for `bundler v0.1.0" in err
    assert "ConnectionRefused" in err or "Connection refused" in err
    assert "waiting for other jobs" not in err


def test_burn_build_script_error_broken_with_network(run):
    # The same crate without offline: its build script has no proxy to go through, and builds.
    _, problems = run("rs-bse-online", OFFLINE.replace("  offline: true\n", ""))
    one_problem(problems, "rs-bse-online", "期望依赖 bundler 的构建脚本失败", "实际正常结束")


def test_burn_build_script_error_broken_by_another_crate(run):
    _, problems = run("rs-bse-other", OFFLINE.replace("{build_script_error: bundler}",
                                                      "{build_script_error: tracel-llvm-bundler}"))
    one_problem(problems, "rs-bse-other", "期望依赖 tracel-llvm-bundler 的构建脚本失败",
                "实际依赖 bundler 的构建脚本失败")


def test_burn_ok_broken_by_build_script_error(run):
    _, problems = run("rs-ok-bse", OFFLINE.replace("  expect: {build_script_error: bundler}\n", ""))
    one_problem(problems, "rs-ok-bse", "期望正常结束", "实际依赖 bundler 的构建脚本失败")


def test_burn_timeout_holds(run):
    res, problems = run("rs-timeout", "timeout: 1\nburn:\n  crate: sleeps\n  expect: timeout\n")
    assert problems == []
    assert res["outcome"]["burn"]["actual"] == {"status": "timeout"}


def test_burn_timeout_broken_by_finishing(run):
    _, problems = run("rs-timeout-done", "timeout: 600\nburn:\n  crate: okjson\n  expect: timeout\n")
    one_problem(problems, "rs-timeout-done", "期望超时", "实际正常结束")


def test_burn_ok_broken_by_timeout(run):
    # Killed at the manifest's 1 s; a run left to sleep its 30 s would end "ok".
    res, problems = run("rs-ok-slow", "timeout: 1\nburn:\n  crate: sleeps\n")
    one_problem(problems, "rs-ok-slow", "期望正常结束", "实际超时")
    assert "burn.json" not in res["files"]


# --- compare and mutation ---------------------------------------------------------------

CMP = """python:
  script: {script}
burn:
  crate: okjson
compare:
  tol: 1.0e-6
  why: same constant on both sides
"""


def test_compare_match_holds(run):
    res, problems = run("cmp-ok", CMP.format(script="ok.py"))
    assert problems == []
    c = res["outcome"]["compare"]
    assert c["ok"] is True and c["exit_code"] == 0 and c["worst"] == 0.0
    assert res["files"]["compare.txt"].strip().endswith("OK")


def test_compare_match_broken_by_mismatch(run):
    res, problems = run("cmp-off", CMP.format(script="off.py"))
    one_problem(problems, "cmp-off", "MISMATCH", "5.00e-01", "字段 x", "容差 1e-06")
    assert res["outcome"]["compare"]["exit_code"] == 1
    assert res["files"]["compare.txt"].strip().endswith("MISMATCH")


def test_compare_mismatch_holds(run):
    _, problems = run("cmp-exp-mis", CMP.format(script="off.py") + "  expect: mismatch\n")
    assert problems == []


def test_compare_mismatch_broken_by_match(run):
    _, problems = run("cmp-exp-mis-ok", CMP.format(script="ok.py") + "  expect: mismatch\n")
    one_problem(problems, "cmp-exp-mis-ok", "expected mismatch", "对上了", "1e-06")


def test_compare_mismatch_not_met_by_a_typo_in_fields(run):
    # "y" exists on neither side: a structural error, not the value difference the page shows.
    res, problems = run("cmp-exp-mis-typo", CMP.format(script="off.py")
                        + "  fields: [y]\n  expect: mismatch\n")
    one_problem(problems, "cmp-exp-mis-typo", "expected mismatch", "结构错误", "y: missing in A")
    assert res["outcome"]["compare"]["structural"] == ["y: missing in A"]


def test_compare_mismatch_not_met_by_a_field_missing_on_one_side(run):
    # python's vec.py prints v, burn's okjson prints x: the fields do not line up.
    res, problems = run("cmp-exp-mis-missing", CMP.format(script="vec.py") + "  expect: mismatch\n")
    one_problem(problems, "cmp-exp-mis-missing", "结构错误", "missing in B")


def test_compare_needs_json_on_both_sides(run):
    # Promised ok, but python raises: besides the side's problem, compare says why it could not run.
    _, problems = run("cmp-nojson", CMP.format(script="raises.py"))
    assert len(problems) == 2, problems
    assert "实际抛出 ValueError" in problems[0]
    assert "无法比较" in problems[1] and "cmp-nojson" in problems[1]


MUT = """python:
  script: vec.py
burn:
  crate: okvec
compare:
  tol: {tol}
  why: identical literals
mutation:
  field: v
  index: 1
  delta: 0.001
"""


def test_mutation_bites(run):
    res, problems = run("mut-bites", MUT.format(tol="1.0e-6"))
    assert problems == []
    m = res["outcome"]["mutation"]
    assert m["exit_code"] == 1 and m["text"].endswith("MISMATCH")
    assert "max|diff|=1.00e-03" in res["files"]["mutation.txt"]
    # The mutation is made on a copy: the real comparison still sees identical outputs.
    assert res["outcome"]["compare"]["ok"] is True


def test_mutation_that_does_not_bite_is_a_problem(run):
    _, problems = run("mut-blunt", MUT.format(tol="0.01"))
    one_problem(problems, "mut-blunt", "变异检查失败", "v[1]", "退出码 0", "期望 1 和 MISMATCH")


def test_mutation_field_must_be_a_number_list(run):
    body = CMP.format(script="ok.py") + "mutation:\n  field: x\n"
    with pytest.raises(BookError, match="mutation.field x"):
        run("mut-scalar", body)


# --- contract.check on hand-made outcomes (no run needed) --------------------------------

def test_feature_leak_is_a_problem(cargo_ws):
    exp = load(manifest(cargo_ws, "leak", "burn:\n  crate: okjson\n", where="adhoc"),
               scratch_book(cargo_ws))
    outcome = {"burn": {"expected": {"kind": "ok"}, "actual": {"status": "ok"},
                        "features": {"compiled": ["flex", "simd", "std"],
                                     "expected": ["flex", "std"]}}}
    one_problem(contract.check(exp, outcome), "leak", "['flex', 'simd', 'std']", "['flex', 'std']")
    outcome["burn"]["features"]["compiled"] = ["flex", "std"]
    assert contract.check(exp, outcome) == []


# --- build(): failures are returned and kept aside ----------------------------------------

def test_failing_experiment_is_kept_aside(cargo_ws, tmp_path):
    manifest(cargo_ws, "b-good", "python:\n  script: ok.py\n")
    manifest(cargo_ws, "b-bad-py", "python:\n  script: raises.py\n")
    manifest(cargo_ws, "b-bad-rs", "burn:\n  crate: panics\n")
    out = tmp_path / "out"
    (out / "b-bad-py").mkdir(parents=True)
    (out / "b-bad-py" / "outcome.json").write_text("OLD", encoding="utf-8")
    book = scratch_book(cargo_ws, out)
    lines = []
    problems = build(book, only=["b-good", "b-bad-py", "b-bad-rs"], log=lines.append)

    assert len(problems) == 2, problems
    assert any("b-bad-py" in p and "抛出 ValueError" in p for p in problems)
    assert any("b-bad-rs" in p and "panic" in p for p in problems)
    assert log_states(lines) == {"b-good": "ran", "b-bad-py": "FAILED", "b-bad-rs": "FAILED"}

    assert (out / "b-good" / "outcome.json").is_file()
    assert not (out / "b-bad-rs").exists()
    # The old entry is neither replaced nor refreshed by the broken run.
    assert (out / "b-bad-py" / "outcome.json").read_text(encoding="utf-8") == "OLD"
    assert sorted(p.name for p in (out / "b-bad-py").iterdir()) == ["outcome.json"]
    for exp_id in ("b-bad-py", "b-bad-rs"):
        failed = out / ".failed" / exp_id
        assert (failed / "outcome.json").is_file() and (failed / "inputs.json").is_file()
    assert not (out / ".failed" / "b-good").exists()

    # Nothing was cached for the failures: the next build runs them again.
    lines.clear()
    build(book, only=["b-good", "b-bad-py"], log=lines.append)
    assert log_states(lines) == {"b-good": "cached", "b-bad-py": "FAILED"}


def test_build_unknown_id(cargo_ws, tmp_path):
    manifest(cargo_ws, "b-good", "python:\n  script: ok.py\n")
    with pytest.raises(BookError, match="no-such-exp"):
        build(scratch_book(cargo_ws, tmp_path / "out"), only=["no-such-exp"], log=lambda s: None)
