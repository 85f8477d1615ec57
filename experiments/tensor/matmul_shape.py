"""matmul of [2, 3] by [2, 3] in PyTorch: the inner dimensions do not agree."""
import torch

# region: naive
a = torch.ones(2, 3)
b = torch.ones(2, 3)
c = a @ b  # forgot .T
# endregion: naive
print(list(c.shape))
