"""The PyTorch side of port-cnn: the model of cnn_classifier.py (the scan fixture, copied next to
this file) built from the script's definitions alone, as the port generator's check.py builds
it; the weights and the input the burn crate reads (crates/port-cnn/data, written by
make_port_data.py); one forward in eval mode. Prints its output in the structure the generated
burn program prints: {"outputs": {"out0": {"shape", "data"}}}."""
import ast
import json
from pathlib import Path

import torch

SCRIPT = Path(__file__).with_name("cnn_classifier.py")
DATA = Path(__file__).resolve().parents[2] / "crates" / "port-cnn" / "data"


def definitions(path: Path) -> dict:
    """The script's namespace after running only its imports, constants, functions and classes
    (the generated check.py's definitions()): its data loading and training loop do not run."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    keep = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            keep.append(node)
        elif isinstance(node, ast.Assign):
            try:
                ast.literal_eval(node.value)
                keep.append(node)
            except ValueError:
                pass
    ns = {"__name__": "port_check"}
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(path), "exec"), ns)
    return ns


def tensor_json(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "data": t.detach().reshape(-1).tolist()}


# region: forward
ns = definitions(SCRIPT)
model = ns["Net"]()
model.load_state_dict(torch.load(DATA / "weights.pt"))
model.eval()
inp = json.loads((DATA / "input.json").read_text(encoding="utf-8"))
x = torch.tensor(inp["data"], dtype=torch.float32).reshape(inp["shape"])
with torch.no_grad():
    y = model(x)
# endregion: forward

print(json.dumps({"outputs": {"out0": tensor_json(y)}}))
