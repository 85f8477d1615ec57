"""book.experiments.manifest: every malformed manifest stops the build with a message naming its file."""
import sys

import pytest

from book.experiments.manifest import discover
from book.errors import BookError
from book.paths import Book
from scratch import write

CRATE_TOML = """[package]
name = "{name}"
version = "0.1.0"
edition = "2021"

[dependencies]
{deps}"""

# A manifest that discovery accepts; each case below breaks exactly one thing in it.
GOOD = """id: {id}
page: somewhere
python:
  script: ok.py
burn:
  crate: plain
  features: [std, flex]
compare:
  tol: 1.0e-6
  why: "small numbers, few terms"
"""


@pytest.fixture
def project(tmp_path):
    write(tmp_path / "experiments" / "ok.py", "print('{}')\n")
    write(tmp_path / "crates" / "plain" / "Cargo.toml", CRATE_TOML.format(
        name="plain", deps='burn = { workspace = true, features = ["std", "flex"] }\n'))
    write(tmp_path / "crates" / "nodeps" / "Cargo.toml", CRATE_TOML.format(name="nodeps", deps=""))
    write(tmp_path / "crates" / "defaults" / "Cargo.toml", CRATE_TOML.format(
        name="defaults", deps='burn = "0.22.1"\n'))
    return Book(root=tmp_path, python=sys.executable)


def put(book, text, exp_id="e1", sub=""):
    return write(book.experiments / sub / f"{exp_id}.yaml", text)


def test_good_manifest_loads(project):
    path = put(project, GOOD.format(id="e1"))
    (exp,) = discover(project)
    assert exp.id == "e1" and exp.manifest == path
    assert exp.python["expect"] == {"kind": "ok"}
    assert exp.burn == {"crate": "plain", "profile": "release", "features": ["flex", "std"],
                        "expect": {"kind": "ok"}}
    assert exp.compare["expect"] == "match" and exp.compare["tol"] == 1e-6
    assert exp.timeout == 120


BAD = {
    "unknown top-level key": (GOOD + "colour: red\n", "colour"),
    "unknown burn key": (GOOD.replace("  crate: plain\n", "  crate: plain\n  backend: wgpu\n"),
                         "backend"),
    "missing python script": (GOOD.replace("ok.py", "nope.py"), "nope.py"),
    "missing crate": (GOOD.replace("crate: plain", "crate: ghost"), "crates/ghost"),
    "compile_error without an E-code": (
        GOOD.split("compare:")[0].replace("  features: [std, flex]\n",
                                          "  features: [std, flex]\n  expect: {compile_error: moved value}\n"),
        "E0382"),
    "compile_error with a bare number": (
        GOOD.split("compare:")[0].replace("  features: [std, flex]\n",
                                          "  features: [std, flex]\n  expect: {compile_error: 382}\n"),
        "382"),
    "unknown expect kind": (
        GOOD.split("compare:")[0].replace("  script: ok.py\n", "  script: ok.py\n  expect: {panic: x}\n"),
        "python.expect"),
    "compare where python expects failure": (
        GOOD.replace("  script: ok.py\n", "  script: ok.py\n  expect: {exception: ValueError}\n"),
        "两侧都期望 ok"),
    "compare where burn expects failure": (
        GOOD.replace("  features: [std, flex]\n",
                     "  features: [std, flex]\n  expect: {panic: boom}\n"),
        "两侧都期望 ok"),
    "compare without why": (GOOD.replace('  why: "small numbers, few terms"\n', ""), "compare.why"),
    "compare with blank why": (GOOD.replace('"small numbers, few terms"', '"  "'), "compare.why"),
    "compare without tol": (GOOD.replace("  tol: 1.0e-6\n", ""), "compare.tol"),
    "compare with one side": (GOOD.split("burn:")[0] + GOOD.split("features: [std, flex]\n")[1],
                              "python 和 burn 两侧"),
    "features differ from Cargo.toml": (GOOD.replace("[std, flex]", "[std, flex, autodiff]"),
                                        "autodiff"),
    "features omit default that Cargo.toml turns on": (
        GOOD.replace("crate: plain", "crate: defaults").replace("[std, flex]", "[]"), "default"),
    "bad profile": (GOOD.replace("  crate: plain\n", "  crate: plain\n  profile: debug\n"), "debug"),
    "negative timeout": (GOOD + "timeout: -1\n", "timeout"),
    "mutation without compare": (GOOD.split("compare:")[0] + "mutation:\n  field: x\n",
                                 "mutation 需要 compare"),
    "no side at all": ("id: {id}\nabout: nothing\n", "python 或 burn"),
    "not a mapping": ("- id: {id}\n", "映射"),
    "invalid yaml": ("id: {id}\npython: [unclosed\n", "YAML"),
    # A string would be walked letter by letter ("s", "u", "m": all "missing in A").
    "compare fields not a list": (GOOD.replace("  tol: 1.0e-6\n", "  tol: 1.0e-6\n  fields: sum\n"),
                                  "compare.fields"),
    "mutation index not an integer": (GOOD + "mutation:\n  field: x\n  index: first\n",
                                      "mutation.index"),
    "exclusive not a boolean": (GOOD + "exclusive: yes please\n", "exclusive"),
    "cpu field without a side": (GOOD + "cpu: [sum]\n", "python. 或 burn."),
    "pins off without cpu fields": (GOOD + "pins: false\n", "cpu:"),
    "pins not a boolean": (GOOD + "cpu: [burn.sum]\npins: off please\n", "pins"),
    "build_script_error without a crate name": (
        GOOD.split("compare:")[0].replace("  features: [std, flex]\n",
                                          "  features: [std, flex]\n  expect: {build_script_error: a download}\n"),
        "build_script_error"),
    "offline not a boolean": (GOOD.replace("  crate: plain\n", "  crate: plain\n  offline: sometimes\n"),
                              "burn.offline"),
    "cpu_tol without cpu fields": (GOOD.split("compare:")[0] + "cpu_tol: 1.0e-5\n", "先用 cpu:"),
    "cpu_tol beside compare": (GOOD + "cpu: [burn.sum]\ncpu_tol: 1.0e-5\n", "compare.tol"),
    "cpu_tol negative": (GOOD.split("compare:")[0] + "cpu: [burn.sum]\ncpu_tol: -1\n", "cpu_tol"),
    "tols not a mapping of numbers": (GOOD.replace("  tol: 1.0e-6\n", "  tol: 1.0e-6\n  tols: {x: big}\n"),
                                      "compare.tols"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_manifest_names_its_file(project, case):
    text, word = BAD[case]
    path = put(project, text.replace("{id}", "e1"))
    with pytest.raises(BookError) as err:
        discover(project)
    msg = str(err.value)
    assert str(path) in msg
    assert word in msg


def test_id_must_equal_file_stem(project):
    path = put(project, GOOD.format(id="other"), exp_id="e1")
    with pytest.raises(BookError) as err:
        discover(project)
    assert str(path) in str(err.value)
    assert "'other'" in str(err.value) and "'e1'" in str(err.value)


def test_id_must_be_lowercase(project):
    path = put(project, GOOD.format(id="E1"), exp_id="E1")
    with pytest.raises(BookError, match="id") as err:
        discover(project)
    assert str(path) in str(err.value)


def test_duplicate_ids_name_both_files(project):
    for sub in ("guide", "tensor"):
        write(project.experiments / sub / "ok.py", "print('{}')\n")
    a = put(project, GOOD.format(id="dup"), exp_id="dup", sub="guide")
    b = put(project, GOOD.format(id="dup"), exp_id="dup", sub="tensor")
    with pytest.raises(BookError) as err:
        discover(project)
    msg = str(err.value)
    assert "'dup'" in msg and str(a) in msg and str(b) in msg


def test_crate_without_burn_declares_no_features(project):
    put(project, "id: e1\nburn:\n  crate: nodeps\n  expect: {compile_error: E0382}\n")
    (exp,) = discover(project)
    assert exp.burn["features"] == []
    assert exp.burn["expect"] == {"kind": "compile_error", "value": "E0382"}


@pytest.mark.parametrize("side", ["python", "burn"])
def test_expect_timeout_is_accepted(project, side):
    # The engine documents `expect: timeout` ("只能是 ok、timeout 或 ...") and contract.py
    # handles it, so a manifest that asks for it must load.
    body = {"python": "python:\n  script: ok.py\n  expect: timeout\n",
            "burn": "burn:\n  crate: nodeps\n  expect: timeout\n"}[side]
    put(project, "id: e1\ntimeout: 1\n" + body)
    (exp,) = discover(project)
    assert getattr(exp, side)["expect"] == {"kind": "timeout"}


def test_one_script_has_one_list_of_cpu_fields(project):
    """cap-cnn and cap-cnn-learner run one script; the learner's list left four fields out,
    which then failed make test on an AMD CPU. Two manifests of one script must agree."""
    write(project.experiments / "a.yaml", GOOD.format(id="a") + "cpu: [python.loss, python.acc]\n")
    write(project.experiments / "b.yaml", GOOD.format(id="b") + "cpu: [python.loss]\n")
    with pytest.raises(BookError) as e:
        discover(project)
    msg = str(e.value)
    assert "experiments/b.yaml" in msg and "experiments/a.yaml" in msg and "ok.py" in msg, msg
    assert "python.acc" in msg, msg
    # The same python fields (burn's may differ: two crates), in any order: accepted.
    write(project.experiments / "b.yaml", GOOD.format(id="b") + "cpu: [python.acc, python.loss, burn.x]\n")
    assert {e.id for e in discover(project)} == {"a", "b"}


def test_offline_build_and_cpu_tol_load(project):
    body = (GOOD.split("compare:")[0].replace(
        "  features: [std, flex]\n",
        "  features: [std, flex]\n  offline: true\n  expect: {build_script_error: tracel-llvm-bundler}\n")
        + "cpu: [python.x]\ncpu_tol: 1.0e-5\n")
    put(project, body.replace("{id}", "e1"))
    (exp,) = discover(project)
    assert exp.burn["offline"] is True
    assert exp.burn["expect"] == {"kind": "build_script_error", "value": "tracel-llvm-bundler"}
    assert exp.cpu_tol == 1e-5
