"""A tiny tied language model the PyTorch way: lm_head.weight = wte.weight.
One tensor, used twice (embedding lookup and output projection), trained with SGD."""
import json
import math

import torch
from torch import nn

V, D, T, STEPS, LR = 16, 8, 12, 5, 0.5


# region: model
class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(V, D)
        self.lm_head = nn.Linear(D, V, bias=False)
        self.lm_head.weight = self.wte.weight  # one Parameter, two modules

    def forward(self, idx):
        return self.lm_head(self.wte(idx))
# endregion: model


model = TinyLM()
with torch.no_grad():
    # element k (1-based) of wte.weight [V, D] is 0.5·sin(k), f64 rounded to f32 once
    model.wte.weight.copy_(torch.tensor([0.5 * math.sin(k + 1) for k in range(V * D)]).reshape(V, D))
tokens = torch.tensor([(5 * t + 3) % V for t in range(T + 1)])
x, y = tokens[:-1].unsqueeze(0), tokens[1:]
loss_fn = nn.CrossEntropyLoss()

# region: train
optimizer = torch.optim.SGD(model.parameters(), lr=LR)
losses = []
for step in range(STEPS):
    loss = loss_fn(model(x).reshape(T, V), y)
    losses.append(loss.item())
    optimizer.zero_grad()
    loss.backward()  # wte.weight.grad sums both uses
    optimizer.step()
# endregion: train
losses.append(loss_fn(model(x).reshape(T, V), y).item())

wte = model.wte.weight.detach()
print(json.dumps({
    "config": {"vocab": V, "d_model": D, "tokens": T, "steps": STEPS, "lr": LR,
               "optimizer": "SGD"},
    "losses": losses,
    "num_params": sum(p.numel() for p in model.parameters()),
    "tie_gap": float((wte - model.lm_head.weight.detach()).abs().max()),
    "wte": [float(v) for v in wte.reshape(-1).tolist()],
}, indent=1))
