"""The PyTorch habit: SVD of a tensor that requires grad, loss = sum of the singular
values (the nuclear norm), backward. torch.linalg.svd has a gradient."""
import json
import math

import torch

M, N = 4, 3

# A[k] = sin((k + 1)^2), row-major [M, N]: full rank, distinct singular values
a = torch.tensor([math.sin((k + 1) ** 2) for k in range(M * N)]).reshape(M, N)

# region: svd
a.requires_grad_()
u, s, vt = torch.linalg.svd(a, full_matrices=False)
loss = s.sum()  # nuclear norm
loss.backward()
grad_a = a.grad  # equals u @ vt
# endregion: svd


def flat(t):
    return [float(v) for v in t.detach().reshape(-1)]


print(json.dumps({
    "dims": list(a.shape),
    "s": flat(s),
    "loss": float(loss.detach()),
    "grad_a": flat(grad_a),
    "grad_is_u_vt": bool(torch.allclose(grad_a, u @ vt, atol=1e-6)),
}, indent=2))
