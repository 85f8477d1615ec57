"""Brings the port-cnn experiment up to the port generator. Run it by hand after the generator
changed (tests/port/test_port_experiment.py then fails and says so), then run the experiment,
and commit what both wrote:

    .venv/bin/python experiments/port/make_port_data.py
    .venv/bin/python -m book.commands.runner build port-cnn

It runs the generator of `make port` (docs/assets/port.js, with the rules `make port` builds
when SITE_URL is unset: links to http://127.0.0.1:8000/) on tests/scan/fixtures/cnn_classifier.py
into a temporary folder and takes from there:
- crates/port-cnn/src/model.rs and src/main.rs, as the generator wrote them;
- experiments/port/cnn_classifier.py: the script itself, next to port_cnn.py, which builds its model;
- crates/port-cnn/data/weights.pt: the state_dict of the script's Net() right after
  torch.manual_seed(0), in eval mode: the model the generated check.py builds;
- crates/port-cnn/data/input.json: the input check.py gives it, shape [2, 3, 32, 32] from
  torch.Generator().manual_seed(1).
Both data files come from the generated check.py's own definitions() (only the script's
imports, constants, functions and classes run) and tensor_json(): the same bytes its run writes.
"""
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from book.commands import port as port_command  # noqa: E402
from book.paths import Book  # noqa: E402
from book.port import rules as port_rules  # noqa: E402

FIXTURE = ROOT / "tests" / "scan" / "fixtures" / "cnn_classifier.py"
CRATE = ROOT / "crates" / "port-cnn"
SCRIPT_COPY = Path(__file__).with_name("cnn_classifier.py")
SHAPE = [2, 3, 32, 32]
INPUT_SEED = 1  # check.py's: a fresh torch.Generator().manual_seed(1) for each shape it tries
# What the experiment takes from the generated crate: its path there → its path here.
TAKEN = {"src/model.rs": "crates/port-cnn/src/model.rs", "src/main.rs": "crates/port-cnn/src/main.rs",
         "script.py": "experiments/port/cnn_classifier.py"}


def generated(book: Book, rules: dict | None = None) -> dict[str, str]:
    """{path in the generated crate: text}: what `make port` writes for the fixture, SITE_URL unset."""
    rules = rules if rules is not None else port_rules.build(book, port_command.DEFAULT_SITE)
    res = port_command.run_generator(book, rules, FIXTURE.read_text(encoding="utf-8"), FIXTURE.name)
    return res["files"]


def _generated_check(crate: Path):
    """The generated crate's check.py as a module (it imports the compare.py beside it)."""
    spec = importlib.util.spec_from_file_location("port_cnn_generated_check", crate / "check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def data_files(files: dict[str, str]) -> dict[str, bytes]:
    """{data/weights.pt, data/input.json: bytes}, made as the generated check.py makes them."""
    with tempfile.TemporaryDirectory(prefix="port-cnn-") as tmp:
        crate = Path(tmp)
        port_command.write(files, crate)
        cfg = json.loads((crate / "port.json").read_text(encoding="utf-8"))
        entry = (cfg.get("models") or [cfg])[0]  # the script's one model: Net(), as the script builds it
        assert SHAPE in entry["input"]["shapes"], entry["input"]["shapes"]
        check = _generated_check(crate)
        ns = check.definitions(crate / "script.py")
        torch.manual_seed(0)
        model = ns[entry["model"]](*entry["args"]).eval()
        x = torch.randn(*SHAPE, generator=torch.Generator().manual_seed(INPUT_SEED))
        with torch.no_grad():
            model(x)  # the input goes through forward, as check.py makes sure
        torch.save(model.state_dict(), crate / "weights.pt")
        return {"crates/port-cnn/data/weights.pt": (crate / "weights.pt").read_bytes(),
                "crates/port-cnn/data/input.json": json.dumps(check.tensor_json(x)).encode("utf-8")}


def everything(book: Book, rules: dict | None = None) -> dict[str, bytes]:
    """{path under the repository: bytes}: every file of the experiment the generator decides."""
    files = generated(book, rules)
    out = {here: files[there].encode("utf-8") for there, here in TAKEN.items()}
    out.update(data_files(files))
    return out


def main() -> None:
    book = Book(ROOT)
    for rel, data in everything(book).items():
        path = ROOT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print("wrote", rel)


if __name__ == "__main__":
    main()
