"""Pitfall burnpack-path, PyTorch side.

A1's forward pass (4→8→3 MLP, ReLU). The script
1. exports it to ONNX exactly as experiments/deploy/export.py does (the burn crates build
   their model from a committed copy of that file; the hash checks it is the same bytes);
2. does what a PyTorch user does to ship inference: a small program that finds its weights
   next to itself, packaged in a folder ("build/"), copied to another folder ("deploy/"),
   the build folder removed, and run from a third working directory.
Prints the fields that crates/p-burnpack-path-fix prints too.
"""
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import onnx
import onnxscript  # noqa: F401  torch.onnx.export runs on it; imported so its version is recorded
import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


def weight(rows, cols, f):
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)] for r in range(rows)])


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)])


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HID)
        self.fc2 = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = Mlp()
with torch.no_grad():
    model.fc1.weight.copy_(weight(HID, IN, math.sin))
    model.fc1.bias.copy_(bias(HID))
    model.fc2.weight.copy_(weight(OUT, HID, math.cos))
    model.fc2.bias.copy_(bias(OUT))
model.eval()
x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)

# 1. The ONNX file burn-onnx reads (same call and clean-up as experiments/deploy/export.py).
torch.onnx.export(model, (x,), "a1.onnx", input_names=["x"], output_names=["logits"],
                  external_data=False, verbose=False)
onnx_model = onnx.load("a1.onnx")
for node in onnx_model.graph.node:
    del node.metadata_props[:]
onnx.save(onnx_model, "a1.onnx")
data = Path("a1.onnx").read_bytes()


def fnv1a64(b):
    h = 0xcbf29ce484222325
    for byte in b:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


# 2. Shipping it the PyTorch way.
# region: app
APP = '''
import json, sys, torch
from pathlib import Path
from torch import nn
class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, 3)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
model = Mlp()
weights = Path(__file__).resolve().parent / "a1.pt"   # found at run time, next to the program
model.load_state_dict(torch.load(weights))
x = torch.tensor(json.load(sys.stdin))
with torch.no_grad():
    print(json.dumps(model(x).flatten().tolist()))
'''
# endregion: app

# region: ship
build = Path("build")
build.mkdir()
(build / "app.py").write_text(APP)
torch.save(model.state_dict(), build / "a1.pt")

shutil.copytree(build, "deploy")        # what goes to the other machine
shutil.rmtree(build)                    # ...where the build folder does not exist
Path("elsewhere").mkdir()
run = subprocess.run([sys.executable, "-I", str(Path("deploy/app.py").resolve())],
                     cwd="elsewhere", input=json.dumps(x.tolist()), capture_output=True,
                     text=True, check=True)
logits = json.loads(run.stdout)
# endregion: ship

with torch.no_grad():
    in_place = model(x).flatten().tolist()

print(json.dumps({
    "onnx_bytes": len(data),
    "onnx_fnv1a64": fnv1a64(data),
    "build_dir_exists": build.exists(),
    "shipped_files": sorted(p.name for p in Path("deploy").iterdir()),
    "shipped_equals_in_place": logits == in_place,
    "logits": [float(v) for v in logits],
}, indent=1))
