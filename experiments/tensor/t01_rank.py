"""The rank is not part of a PyTorch tensor's type: a 3-D tensor passes where 2-D was meant."""
import json

import torch


# region: rank
def row_sums(x):
    # meant for a [rows, cols] matrix: one sum per row
    return x.sum(dim=1)


m = torch.ones(2, 4)
batch = torch.ones(3, 2, 4)  # one dimension too many, by mistake
print(json.dumps({"matrix": list(row_sums(m).shape),
                  "batch": list(row_sums(batch).shape)}))
# endregion: rank
