"""check.py of a crate the port generator wrote: does the burn model give the script's numbers?

    python3 check.py            (run.sh does this, with the crate built first)

It builds the script's own model from its definitions alone: the imports, the constants, the
functions and the classes of script.py run; the rest of the script (data, training) does not.
The model is made as the script makes it (port.json: the class and its arguments), with a fixed
seed, in eval mode; its state_dict goes to data/weights.pt and a fixed input to data/input.json,
through its forward, and the crate (`cargo run --release` reads data/) gets the same. compare.py (the book's
comparator) compares the two within the tolerance in port.json. Exit 0 when they agree."""
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compare  # noqa: E402


def definitions(path: Path) -> dict:
    """The script's namespace after running only its imports, constants, functions and classes."""
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


def outputs(y) -> list:
    ys = y if isinstance(y, (tuple, list)) else (y,)
    return [tensor_json(t) for t in ys]


def main() -> int:
    cfg = json.loads((HERE / "port.json").read_text(encoding="utf-8"))
    ns = definitions(HERE / "script.py")
    torch.manual_seed(0)
    model = ns[cfg["model"]](*cfg["args"]).eval()
    work = HERE / "data"
    work.mkdir(parents=True, exist_ok=True)
    x = None
    for shape in cfg["input"]["shapes"]:
        g = torch.Generator().manual_seed(1)
        if cfg["input"]["int"]:
            x = torch.randint(0, cfg["input"]["high"], shape, generator=g)
        else:
            x = torch.randn(*shape, generator=g)
        try:
            with torch.no_grad():
                want = outputs(model(x))
            break
        except RuntimeError:
            x = None
    if x is None:
        print(f"没有一个输入形状能通过 {cfg['model']}.forward：在 port.json 的 input.shapes 里写上脚本用的形状")
        return 1
    torch.save(model.state_dict(), work / "weights.pt")
    (work / "input.json").write_text(json.dumps(tensor_json(x)), encoding="utf-8")
    env = dict(os.environ, CARGO_TERM_COLOR="never")
    p = subprocess.run(["cargo", "run", "--release", "--offline", "--locked", "--quiet"],
                       cwd=HERE, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        print("burn 一侧没有跑完（上面是它的输出）")
        return 1
    got = json.loads(p.stdout)["outputs"]
    random = cfg.get("random_outputs", [])
    a = {f"out{i}": (o["shape"] if i in random else o) for i, o in enumerate(want)}
    b = {f"out{i}": (o["shape"] if i in random else o) for i, o in enumerate(got)}
    report = compare.compare(a, b, tol=cfg["tol"])
    print(f"输入 {list(x.shape)}；PyTorch 和 burn 的 forward（{len(want)} 个输出"
          + (f"，第 {', '.join(str(i) for i in random)} 个取了随机数，只比形状" if random else "") + "）：")
    print(compare.format_report(report))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
