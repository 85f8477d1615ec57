"""Embedding：ref-8-modules/embedding.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def loaded_embedding():
    m = nn.Embedding(5, 3, padding_idx=0)
    setp(m.weight, 10.0)  # a checkpoint's weights: row 0 is not zero
    ids = torch.tensor([[0, 2, 4], [2, 0, 2]])
    y = m(ids)
    backward(y)
    return {"y": flat(y), "shape": list(y.shape), "dw": flat(m.weight.grad)}


@row
def embedding_padding_idx_grad():
    return loaded_embedding()


@row
def embedding_padding_idx_mask_loaded():
    return loaded_embedding()
