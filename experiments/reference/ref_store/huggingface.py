"""HuggingFace 的检查点：ref-5-store/huggingface.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403

IDS = [[1, 4, 2, 6, 0]]


def logits_row(sd):
    y = hf_logits(sd, torch.tensor(IDS))
    return {"logits": flat(y), "shape": list(y.shape)}


@row
def hf_gpt2_naive():
    return logits_row(load_file(HF_DIR / "model.safetensors"))


@row
def hf_gpt2():
    return logits_row(load_file(HF_DIR / "model.safetensors"))


@row
def hf_sharded():
    index = json.loads((HF_DIR / "model.safetensors.index.json").read_text())
    sd = {}
    for name in sorted(set(index["weight_map"].values())):
        sd.update(load_file(HF_DIR / name))
    return logits_row(sd)
