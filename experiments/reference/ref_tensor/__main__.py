"""ref-1-tensor 的 PyTorch 一侧：按清单的主题顺序导入每个主题的模块（各自用 @row 登记它的行），
再运行每一行，打印 {"rows": {<行 id>: …}}。"""
import json  # noqa: F401

import harness
import creation, randomness, shape, indexing, elementwise, comparison, reduction, matmul, dtype_device, host_data, copy_inplace  # noqa: F401
from harness import *  # noqa: F401,F403

print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
