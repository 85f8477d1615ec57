"""An integer index past the end in PyTorch: IndexError."""
import torch

B, T = 4, 5
x = torch.ones(B, T)

# region: habit
row = x[5]        # only rows 0..3 exist
# endregion: habit
print(row.shape)
