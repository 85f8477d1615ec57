"""Printing PyTorch tensors: print(t) shows the values, and the dtype when it is not the default."""
import torch

# region: print
a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
idx = torch.tensor([3, -1, 4])
small = torch.tensor([1.0e-3, 2.5, -7.125])
long = torch.arange(2000).float()          # more than 1000 elements: summarised
print(a)
print(idx)
print(small)
print(long)
print(idx.to(torch.int32))                # not the default int dtype
# endregion: print
