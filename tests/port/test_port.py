"""The port generator (docs/assets/port.js under node, with book/port/rules.py's rules) against
the seven scan fixtures: the structs and fields it writes and the statements it leaves as todo!()
(tests/port/expected/, one file a fixture), the templates' check against the map rows, the
field names against the script's own state_dict, and `make port`'s refusals. Building the
crates and comparing their numbers is test_port_build.py's (it compiles burn)."""
import json
import shutil
from pathlib import Path

import pytest
import yaml

from book.commands import port as cmd
from book.paths import Book
from book.port import rules as port_rules
from book.site import pyparse
from scratch import REPO, VENV_PY, run_bounded

HERE = Path(__file__).parent
FIXTURES = REPO / "tests" / "scan" / "fixtures"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.py"))
# The fixtures whose models the generator writes whole: no todo!() in model.rs but the training
# guards of gpt_lm's attention dropout and rnn_lm's dropout between LSTM layers (weight tying and
# init are comments). finetune's is not: nn.TransformerEncoder has no template; nor gpt_train's:
# its GPT.forward stops at torch.arange, which has none.
WHOLE = ["cnn_classifier", "gan", "gpt_lm", "rnn_lm", "vae"]

BATCH = r"""const p = require(process.argv[1]); p.useParser(require(process.argv[2]));
const job = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(job.texts.map((t) => { const r = p.port(t, job.rules, {});
  return { structs: r.structs.map((s) => ({ name: s.name, fields: s.fields.map((f) => f.name),
    keys: s.fields.map((f) => [f.name, f.key || null, f.user || (f.seq && f.seq.name) || null, !!f.list]) })),
    todo: r.todos.map((t) => ({ where: t.where, line: t.line })), rows: r.rowsUsed, loop: r.loop.map((f) => [f.line, f.what]),
    panics: (r.modelRs.replace(/is_autodiff\(\) \{ todo!\(/g, '').match(/todo!\(/g) || []).length }; })));"""


@pytest.fixture(scope="module")
def rules() -> dict:
    return port_rules.build(Book(REPO), "http://127.0.0.1:8000/")


@pytest.fixture(scope="module")
def parser_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("pyparse") / "pyparse.js"
    p.write_bytes(pyparse.bundle(Book(REPO)))
    return p


def port_many(rules, parser_file, texts) -> list:
    p = run_bounded(["node", "-e", BATCH, str(cmd.GENERATOR), str(parser_file)],
                    input=json.dumps({"rules": rules, "texts": texts}), capture_output=True, text=True,
                    encoding="utf-8")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def results(rules, parser_file) -> dict:
    return dict(zip(NAMES, port_many(rules, parser_file, [(FIXTURES / f"{n}.py").read_text() for n in NAMES])))


@pytest.mark.parametrize("name", NAMES)
def test_each_fixture_gives_its_expected_structs_and_todos(results, name):
    want = json.loads((HERE / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    got = results[name]
    assert [{"name": s["name"], "fields": s["fields"]} for s in got["structs"]] == want["structs"]
    assert got["todo"] == want["todo"]
    # The training loop's statements train() says how to write, each (line, what).
    assert got["loop"] == want["loop"]


def test_the_models_written_whole_have_no_todo(results):
    for name in WHOLE:
        assert results[name]["panics"] == 0, name
        assert not [t for t in results[name]["todo"] if t["where"].endswith("::forward")], name
        assert results[name]["rows"], name
    assert results["finetune"]["panics"] > 0  # the check itself can see a model that is not whole


def test_every_row_a_crate_uses_is_one_the_rules_checked(results, rules):
    for name, r in results.items():
        for a in r["rows"]:
            assert rules["verdicts"][a] != "differs", (name, a)


def _model_paths(res: dict, top: str) -> set:
    """The module paths the burn structs give their parameters, a Vec's or a Sequential's index
    as # (main.l0 is main.0 on load)."""
    by = {s["name"]: s for s in res["structs"]}
    out = set()

    def walk(name, prefix):
        for field, key, sub, is_list in by[name]["keys"]:
            path = prefix + ("#" if key is not None else field)
            out.add(path)
            if sub:
                walk(sub, path + (".#." if is_list else "."))
    walk(top, "")
    return out


def _state_dict_modules(name: str, model: str, args: list) -> set:
    """The script's own state_dict: each key's module (a bare parameter: its own name), indices as #."""
    code = ("import json, re, sys; sys.path[:0] = [sys.argv[1], sys.argv[4]]; import check; "
            "ns = check.definitions(__import__('pathlib').Path(sys.argv[2])); "
            "m = ns[sys.argv[3]](*json.loads(sys.argv[5])); "
            "print(json.dumps(sorted({re.sub(r'\\b\\d+\\b', '#', k.rpartition('.')[0] or k) for k in m.state_dict()})))")
    p = run_bounded([str(VENV_PY), "-c", code, str(REPO / "book" / "port"), str(FIXTURES / f"{name}.py"), model,
                     str(REPO / "experiments"), json.dumps(args)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    # The last line: a model may print as it is built (gpt_train's GPT prints its size).
    return set(json.loads(p.stdout.splitlines()[-1]))


@pytest.mark.parametrize("name,model,args", [("cnn_classifier", "Net", []), ("vae", "VAE", []),
                                             ("gan", "Generator", []), ("gan", "Discriminator", []),
                                             ("gpt_lm", "GPT", [50]), ("gpt_train", "GPT", [65])])
def test_field_names_are_the_script_state_dict_keys(results, name, model, args):
    keys = _state_dict_modules(name, model, args)
    paths = _model_paths(results[name], model)
    assert keys <= paths, sorted(keys - paths)
    # A renamed field would no longer match a key: the check sees it.
    renamed = json.loads(json.dumps(results[name]))
    s = next(s for s in renamed["structs"] if s["name"] == model)
    s["keys"][0][0] += "_renamed"
    assert not keys <= _model_paths(renamed, model)


def _broken(tmp_path, monkeypatch, edit) -> None:
    data = yaml.safe_load(port_rules.TEMPLATES.read_text(encoding="utf-8"))
    edit(data)
    bad = tmp_path / "templates.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(port_rules, "TEMPLATES", bad)


def test_a_piece_not_in_its_row_stops_the_build(tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch, lambda d: d["modules"]["nn.Linear"].update(
        init="LinearConfig::new({out_features}, {in_features})"))
    with pytest.raises(port_rules.TemplateError, match="nn.Linear.*LinearConfig::new\\(3,4\\).*nn-linear"):
        port_rules.build(Book(REPO), "http://x/")


def test_a_differs_row_used_without_its_fix_stops_the_build(tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch, lambda d: d["calls"]["F.interpolate"]["options"]["mode=bilinear"].update(
        row="nn-interpolate_bilinear_default", code=".with_mode(InterpolateMode::Linear)"))
    with pytest.raises(port_rules.TemplateError, match="不同.*nn-interpolate_bilinear_default.*fix"):
        port_rules.build(Book(REPO), "http://x/")


def test_a_use_line_not_in_its_row_stops_the_build(tmp_path, monkeypatch):
    _broken(tmp_path, monkeypatch, lambda d: d["calls"]["torch.sigmoid"].update(
        use=["burn::tensor::activation::sigmoid"]))
    with pytest.raises(port_rules.TemplateError, match="use burn::tensor::activation::sigmoid"):
        port_rules.build(Book(REPO), "http://x/")


def test_training_pieces_are_checked_against_their_rows(tmp_path, monkeypatch):
    # A scheduler whose burn call its row never ran, a loop comment pointing nowhere, a save
    # that is not the row's: each stops the build, naming it.
    _broken(tmp_path, monkeypatch, lambda d: d["training"]["torch.optim.lr_scheduler.StepLR"].update(
        build=".init().expect(\"lr\")"))
    with pytest.raises(port_rules.TemplateError, match="StepLR.*training-step_lr"):
        port_rules.build(Book(REPO), "http://x/")
    monkeypatch.undo()
    _broken(tmp_path, monkeypatch, lambda d: d["loop"]["clip_grad_norm_"].update(rows=["functional-no_such_row"]))
    with pytest.raises(port_rules.TemplateError, match="clip_grad_norm_.*functional-no_such_row"):
        port_rules.build(Book(REPO), "http://x/")
    monkeypatch.undo()
    _broken(tmp_path, monkeypatch, lambda d: d["save"].update(code="{model}.save_file({path});"))
    with pytest.raises(port_rules.TemplateError, match="torch.save.*store-save_load_state_dict"):
        port_rules.build(Book(REPO), "http://x/")


def test_make_port_writes_a_crate_and_refuses_what_it_must(tmp_path):
    out = tmp_path / "cnn"
    p = run_bounded(["make", "-s", "port", f"SCRIPT={FIXTURES / 'cnn_classifier.py'}", f"OUT={out}"], cwd=REPO,
                    capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert {"Cargo.toml", "Cargo.lock", "check.py", "compare.py", "port.json", "script.py", "run.sh", "README.md",
            "src/main.rs", "src/model.rs"} == {str(f.relative_to(out)) for f in out.rglob("*") if f.is_file()}
    model = (out / "src" / "model.rs").read_text(encoding="utf-8")
    assert "pub struct Net" in model and "todo!" not in model
    assert "http://127.0.0.1:8000/reference/#nn-conv2d" in model
    # Not over a crate already there, nor into a file; a missing script: exit 2, one line.
    for script, target in [(FIXTURES / "vae.py", out), (FIXTURES / "vae.py", out / "Cargo.toml"),
                           (tmp_path / "missing.py", tmp_path / "new")]:
        p = run_bounded(["make", "-s", "port", f"SCRIPT={script}", f"OUT={target}"], cwd=REPO,
                        capture_output=True, text=True)
        assert p.returncode == 2, (script, target, p.stderr)
        assert p.stderr.startswith("错误："), p.stderr
    assert not (tmp_path / "new").exists()
    shutil.rmtree(out)
