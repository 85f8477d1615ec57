"""A1's MLP trained with Adam (lr 0.1) for 15 steps, saved (model and optimizer
state_dict), rebuilt from scratch, loaded and trained 15 more steps; against the same 30
steps without a break, and against a resume whose Adam was created anew. The burn side is
in crates/p-adam-resume-*."""
import json
import math

import torch
from torch import nn

IN, HID, OUT, BATCH = 4, 8, 3, 4
LR, FIRST, RESUMED = 0.1, 15, 15
ADAM = dict(lr=LR, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)


def build():
    # A fresh model: PyTorch's random init, as a rebuilt model starts.
    return nn.ModuleDict({"fc1": nn.Linear(IN, HID), "fc2": nn.Linear(HID, OUT)})


def a1_model():
    # A1's weights: element k (1-based, [out, in]) is 0.5·sin(k) / 0.5·cos(k), bias o is 0.01·o.
    model = build()
    with torch.no_grad():
        for name, f in (("fc1", math.sin), ("fc2", math.cos)):
            lin = model[name]
            n = lin.weight.numel()
            lin.weight.copy_(torch.tensor([0.5 * f(k + 1) for k in range(n)]).reshape(lin.weight.shape))
            lin.bias.copy_(torch.tensor([0.01 * o for o in range(lin.out_features)]))
    return model


x = torch.tensor([0.1 * (k + 1) - 0.5 for k in range(BATCH * IN)]).reshape(BATCH, IN)
y = torch.tensor([b % OUT for b in range(BATCH)])
loss_fn = nn.CrossEntropyLoss()


def train(model, optim, steps):
    losses = []
    for _ in range(steps):
        loss = loss_fn(model.fc2(torch.relu(model.fc1(x))), y)
        optim.zero_grad()
        loss.backward()
        optim.step()
        losses.append(loss.item())
    return losses


# The same 30 steps without a break.
model = a1_model()
uninterrupted = train(model, torch.optim.Adam(model.parameters(), **ADAM), FIRST + RESUMED)

# region: save
model = a1_model()
optim = torch.optim.Adam(model.parameters(), **ADAM)
first = train(model, optim, FIRST)
torch.save({"model": model.state_dict(), "optim": optim.state_dict()}, "ckpt.pt")
del model, optim
# endregion: save

# region: resume
ckpt = torch.load("ckpt.pt")
adam_step = float(ckpt["optim"]["state"][0]["step"])
model = build()                       # new parameter objects
model.load_state_dict(ckpt["model"])
optim = torch.optim.Adam(model.parameters(), **ADAM)
optim.load_state_dict(ckpt["optim"])  # state keyed by position: 0, 1, 2, 3
resumed = train(model, optim, RESUMED)
# endregion: resume
state_keys = list(ckpt["optim"]["state"].keys())

# A resume whose Adam starts over: created anew, its state_dict never loaded.
model = build()
model.load_state_dict(ckpt["model"])
fresh = train(model, torch.optim.Adam(model.parameters(), **ADAM), RESUMED)

print(json.dumps({
    "config": {k: list(v) if isinstance(v, tuple) else v for k, v in ADAM.items()},
    "loss_first": first,
    "loss_resumed": resumed,
    "loss_curve": first + resumed,
    "loss_uninterrupted": uninterrupted,
    "loss_fresh_optimizer": first + fresh,
    "resume_equals_uninterrupted": first + resumed == uninterrupted,
    "optim_state_keys": state_keys,
    "adam_step_saved": adam_step,
}, indent=1))
