"""book.running.normalize: outputs must not depend on where, when or by which process they ran."""
import json

from book.running import normalize


def test_repo_root_becomes_dir(tmp_path):
    s = f'  File "{tmp_path}/experiments/x.py", line 3\n'
    assert normalize.text(s, tmp_path) == '  File "$DIR/experiments/x.py", line 3\n'


def test_venv_wins_over_repo_root(tmp_path):
    s = f"{tmp_path}/.venv/lib/python3.11/site-packages/torch/nn/functional.py:12\n"
    assert normalize.text(s, tmp_path) == "$VENV/lib/python3.11/site-packages/torch/nn/functional.py:12\n"


def test_cargo_registry_path(tmp_path):
    s = ("thread 'main' panicked at /root/.cargo/registry/src/"
         "index.crates.io-1949cf8c6b5b557f/burn-0.22.1/src/x.rs:842:9:\n")
    assert normalize.text(s, tmp_path) == "thread 'main' panicked at $CARGO/burn-0.22.1/src/x.rs:842:9:\n"


def test_cargo_registry_path_under_any_cargo_home(tmp_path):
    s = "/opt/cargo/registry/src/index.crates.io-abcdef0123456789/burn-flex-0.22.1/src/lib.rs\n"
    assert normalize.text(s, tmp_path) == "$CARGO/burn-flex-0.22.1/src/lib.rs\n"


def test_thread_id_is_dropped(tmp_path):
    s = "thread 'main' (12345) panicked at src/main.rs:2:5:\n"
    assert normalize.text(s, tmp_path) == "thread 'main' panicked at src/main.rs:2:5:\n"
    s = "thread '<unnamed>' (7) panicked\n"
    assert normalize.text(s, tmp_path) == "thread '<unnamed>' panicked\n"


def test_addresses(tmp_path):
    s = "ptr 0x7ffd12345678 and 0xDEADBEEF00, small 0x1f stays\n"
    assert normalize.text(s, tmp_path) == "ptr 0x<addr> and 0x<addr>, small 0x1f stays\n"


def test_dates(tmp_path):
    s = ("ran at 2026-11-29T14:09:20+00:00\n"
         "also 2026-01-02 03:04:05.123456Z and 2026-01-02T03:04:05\n"
         "but a plain day 2026-01-02 stays\n")
    assert normalize.text(s, tmp_path) == (
        "ran at <date>\nalso <date> and <date>\nbut a plain day 2026-01-02 stays\n")


def test_whitespace(tmp_path):
    s = "a   \r\nb\t\n\n\n"
    assert normalize.text(s, tmp_path) == "a\nb\n"
    assert normalize.text("   \n\n", tmp_path) == ""


def test_text_is_idempotent(tmp_path):
    s = (f"{tmp_path}/.venv/x thread 'main' (1) panicked 0x7ffd12345678 "
         "2026-11-29T14:09:20Z  \n")
    once = normalize.text(s, tmp_path)
    assert normalize.text(once, tmp_path) == once


def test_drop_cargo_status():
    s = "   Compiling foo v0.1.0\n    Finished `release` profile\nerror: real\n     Running x\n"
    assert normalize.drop_cargo_status(s) == "error: real\n"


def test_dump_json_sorts_keys_deterministically():
    a = normalize.dump_json({"b": 1, "a": {"d": [2, 1], "c": 0.1}, "结论": "对"})
    b = normalize.dump_json({"结论": "对", "a": {"c": 0.1, "d": [2, 1]}, "b": 1})
    assert a == b
    assert a.endswith("}\n")
    assert a.index('"a"') < a.index('"b"') < a.index('"结论"')
    assert a.index('"c"') < a.index('"d"')
    assert '"结论": "对"' in a  # not \u-escaped: the files stay readable
    assert '"c": 0.1' in a       # shortest round-trip float
    assert json.loads(a) == {"b": 1, "a": {"d": [2, 1], "c": 0.1}, "结论": "对"}


def test_parse_json():
    assert normalize.parse_json('{"x": 1}') == {"x": 1}
    assert normalize.parse_json("not json") is None


def test_glog_prefix_loses_its_date_and_pid(tmp_path):
    line = "W1129 15:33:37.043000 1369 torch/onnx/_internal/exporter/_registration.py:107] skip\n"
    assert normalize.text(line, tmp_path) == \
        "W<date> <pid> torch/onnx/_internal/exporter/_registration.py:107] skip\n"


def test_cargo_metadata_hash_in_build_paths(tmp_path):
    # cargo's hash for a path crate depends on where the checkout is: two clones differ.
    s = f"panicked at {tmp_path}/target/release/build/p-x-naive-6d17c805650aa7f2/out/model/a1.rs:39:17"
    assert normalize.text(s, tmp_path) == "panicked at $DIR/target/release/build/p-x-naive-<hash>/out/model/a1.rs:39:17\n"
    assert normalize.text("commit 6d17c805650aa7f2", tmp_path) == "commit 6d17c805650aa7f2\n"  # only in build paths


def test_strings_inside_json_values_are_normalised(tmp_path):
    data = {"reads": f"{tmp_path}/target/debug/deps/foo-0123456789abcdef", "n": [1.5, "x"], "k": 2}
    assert normalize.value(data, tmp_path) == {"reads": "$DIR/target/debug/deps/foo-<hash>",
                                               "n": [1.5, "x"], "k": 2}


def test_a_linked_venv_is_venv_by_either_name(tmp_path):
    """make bench's clones link the checkout's .venv: Python prints its module paths by the
    link's target, and the output must be the same as from the checkout itself."""
    real = tmp_path / "shared-venv"
    (real / "lib").mkdir(parents=True)
    repo = tmp_path / "clone"
    repo.mkdir()
    (repo / ".venv").symlink_to(real)
    printed = f"{real}/lib/python3.11/site-packages/torch/x.py:1] warn"
    assert normalize.text(printed, repo) == "$VENV/lib/python3.11/site-packages/torch/x.py:1] warn\n"
