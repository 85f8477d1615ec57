"""与主机数据：ref-1-tensor/host_data.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


@row
def from_list():
    v = [0.5 * math.sin(k + 1) for k in range(6)]
    return out(torch.tensor(v, dtype=torch.float32).reshape(2, 3))


@row
def from_numpy():
    a = np.array([0.5 * math.sin(k + 1) for k in range(6)], dtype=np.float32).reshape(2, 3)
    return out(torch.from_numpy(a))


@row
def tolist():
    return {"v": data(2, 3).tolist()}


@row
def tolist_nested():
    return {"v": data(2, 3).tolist()}


@row
def numpy_flat():
    return {"v": [float(x) for x in data(2, 3).numpy().ravel()]}


@row
def item():
    return {"v": data(3, 4).sum().item()}


@row
def item_int():
    return {"v": torch.arange(5).sum().item()}
