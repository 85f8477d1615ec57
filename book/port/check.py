"""check.py of a crate the port generator wrote: does the burn model give the script's numbers?

    python3 check.py            (run.sh does this, with the crate built first)

It builds the script's own model from its definitions alone: the imports, the constants, the
functions and the classes of script.py run; the rest of the script (data, training) does not.
Each model is made as the script makes it (port.json: the class and its arguments), with a fixed
seed, in eval mode; its state_dict goes to data/weights.pt and a fixed input to data/input.json,
through its forward, and the crate (`cargo run --release` reads data/) gets the same; a script
that builds several models (a GAN) has the others in data/MODEL/. compare.py (the book's
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
    """The forward's outputs in order, a nested tuple (an LSTM's (h_n, c_n)) flattened."""
    ys = y if isinstance(y, (tuple, list)) else (y,)
    out = []
    for t in ys:
        if isinstance(t, (tuple, list)):
            out.extend(outputs(t))
        else:
            out.append(None if t is None else tensor_json(t))
    return out


def arguments(entry: dict, x: torch.Tensor) -> tuple:
    """The forward's arguments: the input, and for a forward that takes an LSTM's (h0, c0)
    (port.json's state) zeros of [layers, batch, hidden] for both, as the crate gives burn."""
    st = entry.get("state")
    if not st:
        return (x,)
    zeros = lambda: torch.zeros(st["layers"], x.shape[st["batch_dim"]], st["hidden"])  # noqa: E731
    return (x, (zeros(), zeros()))


def check(entry: dict, ns: dict, work: Path, argv: list, tol: float) -> bool:
    """One model: its state_dict and an input into `work`, both forwards, compared."""
    torch.manual_seed(0)
    model = ns[entry["model"]](*entry["args"]).eval()
    x = None
    for shape in entry["input"]["shapes"]:
        g = torch.Generator().manual_seed(1)
        if entry["input"]["int"]:
            x = torch.randint(0, entry["input"]["high"], shape, generator=g)
        else:
            x = torch.randn(*shape, generator=g)
        try:
            with torch.no_grad():
                want = outputs(model(*arguments(entry, x)))
            break
        except RuntimeError:
            x = None
    if x is None:
        print(f"{entry['model']}：没有一个输入形状能通过它的 forward，在 port.json 的 input.shapes 里写上脚本用的形状")
        return False
    work.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), work / "weights.pt")
    (work / "input.json").write_text(json.dumps(tensor_json(x)), encoding="utf-8")
    env = dict(os.environ, CARGO_TERM_COLOR="never")
    p = subprocess.run(["cargo", "run", "--release", "--locked", "--quiet", "--"] + argv,
                       cwd=HERE, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        print(f"{entry['model']}：burn 一侧没有跑完（上面是它的输出）")
        return False
    got = json.loads(p.stdout)["outputs"]
    random = entry.get("random_outputs", [])
    a = {f"out{i}": (o["shape"] if i in random else o) for i, o in enumerate(want)}
    b = {k: (o["shape"] if int(k[3:]) in random else o) for k, o in got.items()}
    report = compare.compare(a, b, tol=tol)
    print(f"{entry['model']}，输入 {list(x.shape)}；PyTorch 和 burn 的 forward（{len(want)} 个输出"
          + (f"，第 {', '.join(str(i) for i in random)} 个取了随机数，只比形状" if random else "") + "）：")
    print(compare.format_report(report))
    return report["ok"]


def main() -> int:
    cfg = json.loads((HERE / "port.json").read_text(encoding="utf-8"))
    if not cfg["models"]:
        print("port.json 里没有可以比较的模型（见 README.md）")
        return 1
    ns = definitions(HERE / "script.py")
    data = HERE / "data"
    ok = True
    for entry in cfg["models"][:-1]:
        ok &= check(entry, ns, data / entry["model"], [entry["model"], str(data / entry["model"])], cfg["tol"])
    ok &= check(cfg["models"][-1], ns, data, [], cfg["tol"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
