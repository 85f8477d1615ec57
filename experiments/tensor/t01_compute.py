"""Computing with PyTorch tensors: elementwise ops, broadcasting, matmul, reductions."""
import json

import torch


def flat(t):
    return t.flatten().tolist()


a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])

# region: elementwise
b = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
add = a + b
mul = a * b
div = a / b
affine = a * 2.0 + 1.0
exp = (-a).exp()
# endregion: elementwise

# region: broadcast
row = torch.tensor([10.0, 20.0, 30.0])  # shape [3]
col = torch.tensor([[1.0], [2.0]])      # shape [2, 1]
a_row = a + row                         # [2, 3] + [3]
a_col = a + col                         # [2, 3] + [2, 1]
outer = col * row                       # [2, 1] * [3] -> [2, 3]
# endregion: broadcast

# region: matmul
w = torch.tensor([[1.0, 0.0], [0.5, -1.0], [2.0, 0.25]])  # [3, 2]
y = a @ w                                                # [2, 2]
batch = torch.stack([a, 2.0 * a])                        # [2, 2, 3]
yb = batch @ w                                           # [2, 2, 2]
# endregion: matmul

# region: reduce
total = a.sum()                        # all elements
col_sums = a.sum(dim=0)                # one per column
row_means = a.mean(dim=1)
row_means_keep = a.mean(dim=1, keepdim=True)
best = a.argmax(dim=1)                 # index of the max in each row
row_max = a.max(dim=1).values
# endregion: reduce

reduce = {"total": total, "col_sums": col_sums, "row_means": row_means,
          "row_means_keep": row_means_keep, "best": best, "row_max": row_max}
print(json.dumps({
    "elementwise": {"add": flat(add), "mul": flat(mul), "div": flat(div),
                    "affine": flat(affine), "exp": flat(exp)},
    "broadcast": {"a_row": flat(a_row), "a_col": flat(a_col), "outer": flat(outer)},
    "broadcast_shapes": {"a_row": list(a_row.shape), "a_col": list(a_col.shape),
                         "outer": list(outer.shape)},
    "matmul": {"y": flat(y), "yb": flat(yb)},
    "matmul_shapes": {"y": list(y.shape), "yb": list(yb.shape)},
    "reduce": {k: flat(t) for k, t in reduce.items()},
    "reduce_shapes": {k: list(t.shape) for k, t in reduce.items()},
    "reduce_dtypes": {"best": str(best.dtype)},
}))
