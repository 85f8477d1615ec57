import json

import torch

# region: habit
# bytes read from each of three shards; each count fits in 32 bits
sizes = torch.tensor([1_500_000_000, 1_200_000_000, 900_000_000])
total = sizes.sum()
# endregion: habit

# region: int32
total32 = sizes.to(torch.int32).sum()  # even an int32 tensor sums into int64
# endregion: int32

print(json.dumps({"sizes": sizes.tolist(), "total": int(total),
                  "dtypes": {"sizes": str(sizes.dtype), "total": str(total.dtype),
                             "total_of_int32": str(total32.dtype)},
                  "total_of_int32": int(total32)}))
