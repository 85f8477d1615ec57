"""ref-5-store 的 PyTorch 一侧：按清单的主题顺序导入每个主题的模块（各自用 @row 登记它的行），
再运行每一行，打印 {"rows": {<行 id>: …}}。"""
import json  # noqa: F401

import harness
import load_pytorch, export_pytorch, mixed_precision, checkpoint_finetune, huggingface  # noqa: F401
from harness import *  # noqa: F401,F403

if __name__ == "__main__":
    print(json.dumps({"rows": {name: fn() for name, fn in ROWS.items()}}))
