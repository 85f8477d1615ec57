"""ref-7-ops 的 PyTorch 一侧：按清单的主题顺序导入每个主题的模块（各自用 @row 登记它的行），
再运行每一行，打印 {"rows": {<行 id>: …}}。"""
import json  # noqa: F401

import harness
import attention, masks, conv_pool, functional_layers, creation_random, matrix_distance, elementwise_reduce, scatter_unique, padding, losses, vae, shape, distributions  # noqa: F401
from harness import *  # noqa: F401,F403

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
