"""遍历模型的参数：ref-8-modules/parameters.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def named_parameters():
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(4, 3), nn.Linear(3, 2)

    found = [(n, p.numel()) for n, p in Net().named_parameters()]
    return {"names": [n for n, _ in found], "numel": [k for _, k in found]}
