"""ref-8-modules 的 PyTorch 一侧：按清单的主题顺序导入每个主题的模块（各自用 @row 登记它的行），
再运行每一行，打印 {"rows": {<行 id>: …}}。"""
import json  # noqa: F401

import harness
import transformer_decoder, conv_pool_other, norm_dropout, embedding, containers, train_eval, init, parameters, lr_schedule, datasets, training_loop, compile_export_dist  # noqa: F401
from harness import *  # noqa: F401,F403

if __name__ == "__main__":
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
