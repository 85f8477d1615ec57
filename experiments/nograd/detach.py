"""detach() and requires_grad on and off, with the gradients that come out."""
import json

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# region: detach
y = x * x          # in the graph
z = y.detach()     # same values, out of the graph
loss = (y * z).sum()
loss.backward()    # d/dx = 2x·z = 2x³ (z counts as a constant)
# endregion: detach
after_detach = {
    "y_requires_grad": y.requires_grad,
    "y_has_grad_fn": y.grad_fn is not None,
    "z_requires_grad": z.requires_grad,
    "z_has_grad_fn": z.grad_fn is not None,
    "z_grad_is_none": z.grad is None,
}
grad_x = x.grad.tolist()

# region: regrad
w = z.detach().requires_grad_(True)   # a new leaf that wants gradients
x.grad = None
loss2 = (w * x).sum()
loss2.backward()
# endregion: regrad
grad_w2, grad_x2 = w.grad.tolist(), x.grad.tolist()

# region: off
x.requires_grad_(False)               # switch a leaf off
loss3 = (x * x).sum()
off = {"x_requires_grad": x.requires_grad, "loss3_requires_grad": loss3.requires_grad}
# endregion: off

print(json.dumps({
    "grad_x": grad_x,
    "flags_detach": after_detach,
    "grad_w2": grad_w2,
    "grad_x2": grad_x2,
    "w_requires_grad": w.requires_grad,
    "flags_off": off,
}))
