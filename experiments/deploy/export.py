"""A1's forward pass (4→8→3 MLP, ReLU), exported to ONNX with torch.onnx.export.

Run by hand once to write the committed model:
    .venv/bin/python experiments/deploy/export.py crates/d09-onnx/model/a1.onnx
As the PyTorch side of experiments d09-onnx / d09-embed it re-exports into its
temporary working directory and prints the forward output and a hash of the file.
"""
import hashlib
import json
import math
import sys
from pathlib import Path

import onnx
import onnxscript  # noqa: F401  torch.onnx.export runs on it; imported so its version is recorded
import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4


def weight(rows, cols, f):
    # Element k (1-based, [out, in] order) is 0.5·f(k), an f64 rounded to f32 once.
    return torch.tensor([[0.5 * f(r * cols + c + 1) for c in range(cols)]
                         for r in range(rows)])


def bias(n):
    return torch.tensor([0.01 * o for o in range(n)])


# region: model
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
path = Path(sys.argv[1] if len(sys.argv) > 1 else "a1.onnx")
torch.onnx.export(model, (x,), str(path), input_names=["x"], output_names=["logits"],
                  external_data=False, verbose=False)
# The exporter writes each node's Python stack trace (absolute script path, line
# numbers) into the file. Drop that metadata, so the bytes depend on the model only.
onnx_model = onnx.load(str(path))
traced = [p.value for n in onnx_model.graph.node for p in n.metadata_props
          if p.key == "pkg.torch.onnx.stack_trace"]
for node in onnx_model.graph.node:
    del node.metadata_props[:]
onnx.save(onnx_model, str(path))
# endregion: model

# region: infer
with torch.no_grad():
    logits = model(x)
# endregion: infer

data = path.read_bytes()
script = str(Path(__file__).resolve())
graph = onnx.load(str(path)).graph


def fnv1a64(b):
    h = 0xcbf29ce484222325
    for byte in b:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


print(json.dumps({
    "stack_trace_names_script": any(script in t for t in traced),
 "path_left_in_file": script.encode() in data,
 "producer": [onnx_model.producer_name, onnx_model.producer_version],
 "onnx_bytes": len(data),
    "onnx_sha256": hashlib.sha256(data).hexdigest(),
    "onnx_fnv1a64": fnv1a64(data),
    "opset": [f"{o.domain or 'ai.onnx'}:{o.version}" for o in onnx.load(str(path)).opset_import],
    "onnx_nodes": [n.op_type for n in graph.node],
    "onnx_node_attrs": [{a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
                     for n in graph.node],
 "onnx_initializers": {t.name: list(t.dims) for t in graph.initializer},
    "weights": {n: [float(v) for v in p.detach().flatten().tolist()]
             for n, p in model.named_parameters()},
 "num_params": sum(p.numel() for p in model.parameters()),
 "shape": list(logits.shape),
    "logits": [float(v) for v in logits.flatten().tolist()],
}, indent=1))
