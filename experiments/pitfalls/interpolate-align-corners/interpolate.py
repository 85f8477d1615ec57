"""A U-Net / FPN style x2 bilinear upsample written the PyTorch way: F.interpolate with
scale_factor=2, mode='bilinear' and align_corners left at its default (None)."""
import inspect
import json
import math

import torch
import torch.nn.functional as F

N, C, H, W = 1, 2, 3, 4


def feature_map():
    # Element k (row-major, from 0) is 0.5 * sin(k + 1), stored as f32.
    v = [0.5 * math.sin(k + 1) for k in range(N * C * H * W)]
    return torch.tensor(v, dtype=torch.float32).reshape(N, C, H, W)


x = feature_map().requires_grad_()

# region: up
y = F.interpolate(x, scale_factor=2, mode="bilinear")  # align_corners=None: False
y.sum().backward()  # each input pixel's total weight in the output
# endregion: up

# Interpolating the pixel index itself gives where each output sample reads from.
ramp_w = torch.arange(W, dtype=torch.float32).reshape(1, 1, 1, W).expand(1, 1, H, W)
ramp_h = torch.arange(H, dtype=torch.float32).reshape(1, 1, H, 1).expand(1, 1, H, W)
up = lambda t, **kw: F.interpolate(t, scale_factor=2, mode="bilinear", **kw)
flat = lambda t: [float(v) for v in t.detach().flatten().tolist()]
y_true = up(x.detach(), align_corners=True)
# bicubic reads align_corners the same way (None: False).
y_cubic = F.interpolate(x.detach(), scale_factor=2, mode="bicubic")
# The module form of the same layer.
upsample = torch.nn.Upsample(scale_factor=2, mode="bilinear")
corners = lambda t: [float(t[0, 0, i, j]) for i, j in ((0, 0), (0, -1), (-1, 0), (-1, -1))]

print(json.dumps({
    "align_corners_default": repr(inspect.signature(F.interpolate).parameters["align_corners"].default),
    "default_same_as_false": torch.equal(y, up(x.detach(), align_corners=False)),
    "upsample_align_corners": repr(upsample.align_corners),
    "upsample_same": torch.equal(upsample(x.detach()), y.detach()),
    "in_shape": list(x.shape),
    "x": flat(x),
    "shape": list(y.shape),
    "y": flat(y),
    "grad": flat(x.grad),
    "coords": {"w": flat(up(ramp_w)[0, 0, 0]), "h": flat(up(ramp_h)[0, 0, :, 0])},
    "corners": {"x": corners(x.detach()), "y": corners(y.detach())},
    "bicubic": flat(y_cubic),
    # PyTorch with align_corners=True, for the page only (not compared).
    "align_true": {
        "y": flat(y_true),
        "corners": corners(y_true),
        "coords": {"w": flat(up(ramp_w, align_corners=True)[0, 0, 0]),
                   "h": flat(up(ramp_h, align_corners=True)[0, 0, :, 0])},
    },
}, indent=1))
