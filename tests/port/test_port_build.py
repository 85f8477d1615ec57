"""The crates `make port` writes for the scan fixtures build (cargo build --release --offline
--locked, in the book's target dir, with the one feature set every generated crate uses), and
the crates of the models written whole give the script's numbers: check.py builds the script's
model from its definitions, saves its state_dict, runs both forwards on one input and compares
them with the book's comparator. Compiles burn's store feature set once (shared with cap-cnn)."""
import os
import re

import pytest

from scratch import REPO, VENV_PY, run_bounded

FIXTURES = REPO / "tests" / "scan" / "fixtures"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.py"))
WHOLE = ["cnn_classifier", "gan", "gpt_lm", "vae"]


def generate(name, tmp_path):
    out = tmp_path / name
    p = run_bounded([str(VENV_PY), "-m", "book.commands.port", str(FIXTURES / f"{name}.py"), str(out)], cwd=REPO,
                    capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return out


def cargo_env():
    return dict(os.environ, CARGO_TARGET_DIR=str(REPO / "target"), CARGO_TERM_COLOR="never")


@pytest.mark.parametrize("name", NAMES)
def test_each_fixture_crate_builds_offline_and_locked(name, tmp_path):
    out = generate(name, tmp_path)
    lock = (out / "Cargo.lock").read_text(encoding="utf-8")
    p = run_bounded(["cargo", "build", "--release", "--offline", "--locked"], cwd=out, env=cargo_env(),
                    capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-4000:]
    assert (out / "Cargo.lock").read_text(encoding="utf-8") == lock


@pytest.mark.parametrize("name", WHOLE)
def test_a_whole_model_gives_the_script_numbers(name, tmp_path):
    out = generate(name, tmp_path)
    p = run_bounded([str(VENV_PY), "check.py"], cwd=out, env=cargo_env(), capture_output=True, text=True)
    print(p.stdout)
    assert p.returncode == 0, p.stdout + p.stderr[-3000:]
    assert re.search(r"\bOK\b", p.stdout), p.stdout
