"""A small decoder-only transformer (GPT) trained on the Zen of Python, in the style of the
public minimal GPT training scripts: causal self-attention, learned positions, pre-norm
blocks, weight tying, AdamW with two parameter groups, warmup + cosine learning rate,
gradient accumulation, global-norm clipping, cross_entropy(ignore_index=-1), a checkpoint
and a resume in a fresh process, then top-k sampling. The text, the initial weights
(init.pt), the window offsets (order.json) and the sampling draws (draws.json) are committed
under crates/cap-gpt/data/ by make_gpt_data.py, so the burn port starts from the same weights,
sees the same batches and draws the same numbers.
"""
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

DATA = Path(__file__).resolve().parents[2] / "crates" / "cap-gpt" / "data"

# region: config
N_LAYER, N_HEAD, N_EMBD, BLOCK = 2, 4, 64, 32
DROPOUT = 0.0              # burn's attention() has no dropout: the matched run has none
DROPOUT_RUN = 0.1          # a second run, compared on its final results only
MICRO, ACCUM = 8, 2        # 8 windows per micro-batch, 2 micro-batches per step
STEPS, WARMUP = 100, 10
MAX_LR, MIN_LR = 3e-3, 3e-4
WEIGHT_DECAY, BETAS = 0.1, (0.9, 0.95)
CLIP = 1.0
RESUME_AT = 60             # the checkpoint the resumed run starts from
PROMPT, GEN_LEN, TOP_K, TEMPERATURE, SEED = "Beautiful is ", 120, 5, 0.8, 1337
# endregion: config


def load_text():
    text = (DATA / "zen.txt").read_text(encoding="utf-8")
    chars = sorted(set(text))
    return text, chars, {c: i for i, c in enumerate(chars)}


# region: data
def batch(ids, offsets):
    """Windows of BLOCK ids at `offsets`; the target is the window shifted by one. A window
    that runs past the end of the text is padded: input 0, target -1 (ignored by the loss)."""
    xs, ys = [], []
    for o in offsets:
        x = ids[o:o + BLOCK]
        y = ids[o + 1:o + BLOCK + 1]
        xs.append(F.pad(x, (0, BLOCK - len(x)), value=0))
        ys.append(F.pad(y, (0, BLOCK - len(y)), value=-1))
    return torch.stack(xs), torch.stack(ys)
# endregion: data


# region: attention_module
class CausalSelfAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.c_attn = nn.Linear(N_EMBD, 3 * N_EMBD)
        self.c_proj = nn.Linear(N_EMBD, N_EMBD)
        self.dropout = dropout
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, N_HEAD, C // N_HEAD).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           dropout_p=self.dropout if self.training else 0.0)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))
# endregion: attention_module


# region: model
class MLP(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.c_fc = nn.Linear(N_EMBD, 4 * N_EMBD)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * N_EMBD, N_EMBD)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.ln_1 = nn.LayerNorm(N_EMBD)
        self.attn = CausalSelfAttention(dropout)
        self.ln_2 = nn.LayerNorm(N_EMBD)
        self.mlp = MLP(dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab, dropout=DROPOUT):
        super().__init__()
        self.wte = nn.Embedding(vocab, N_EMBD)
        self.wpe = nn.Embedding(BLOCK, N_EMBD)
        self.drop = nn.Dropout(dropout)
        self.h = nn.ModuleList(Block(dropout) for _ in range(N_LAYER))
        self.ln_f = nn.LayerNorm(N_EMBD)
        self.lm_head = nn.Linear(N_EMBD, vocab, bias=False)
        self.lm_head.weight = self.wte.weight  # weight tying: one tensor, two uses
        self.apply(self._init_weights)
        for name, p in self.named_parameters():
            if name.endswith("c_proj.weight"):  # scaled init of the residual projections
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * N_LAYER))

    def _init_weights(self, module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        T = idx.shape[1]
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(T)))
        for block in self.h:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss
# endregion: model


# region: optim
def configure_optimizer(model):
    """Two groups: 2-D weights decay; biases and LayerNorm parameters do not. The tied
    wte/lm_head tensor is 2-D, so it decays, once."""
    params = [p for p in model.parameters() if p.requires_grad]  # the tied tensor appears once
    decay = [p for p in params if p.dim() >= 2]
    no_decay = [p for p in params if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": WEIGHT_DECAY},
              {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=MAX_LR, betas=BETAS, eps=1e-8)
# endregion: optim


# region: lr
def get_lr(step):
    """Linear warmup to MAX_LR over WARMUP steps, then cosine decay to MIN_LR at STEPS."""
    if step < WARMUP:
        return MAX_LR * (step + 1) / WARMUP
    ratio = (step - WARMUP) / (STEPS - WARMUP)
    return MIN_LR + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (MAX_LR - MIN_LR)
# endregion: lr


# region: train
def train(model, optimizer, ids, order, first, last, save_at=None):
    """Optimizer steps first..last-1 (0-based). Returns per-step loss, lr and gradient norm."""
    record = {"loss": [], "lr": [], "grad_norm": []}
    for step in range(first, last):
        lr = get_lr(step)
        for group in optimizer.param_groups:
            group["lr"] = lr
        total = 0.0
        for micro in range(ACCUM):
            x, y = batch(ids, order[step][micro])
            _, loss = model(x, y)
            (loss / ACCUM).backward()  # gradients add up over the micro-batches
            total += loss.item() / ACCUM
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        record["loss"].append(total)
        record["lr"].append(lr)
        record["grad_norm"].append(norm.item())
        if save_at == step + 1:
            save_checkpoint("ckpt.pt", model, optimizer, step + 1)
    return record
# endregion: train


# region: checkpoint
def save_checkpoint(path, model, optimizer, step):
    config = {"n_layer": N_LAYER, "n_head": N_HEAD, "n_embd": N_EMBD, "block": BLOCK,
              "vocab": model.wte.num_embeddings}
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": step, "config": config}, path)


def resume(path):
    """Run in a fresh process: load everything the checkpoint holds and train to the end."""
    text, chars, stoi = load_text()
    ids = torch.tensor([stoi[c] for c in text])
    order = json.loads((DATA / "order.json").read_text())["steps"]
    ckpt = torch.load(path, weights_only=True)
    model = GPT(ckpt["config"]["vocab"])
    model.load_state_dict(ckpt["model"])
    optimizer = configure_optimizer(model)
    optimizer.load_state_dict(ckpt["optimizer"])
    record = train(model, optimizer, ids, order, ckpt["step"], STEPS)
    torch.save(model.state_dict(), "resumed.pt")
    print(json.dumps(record))
# endregion: checkpoint


# region: sample
@torch.no_grad()
def generate(model, stoi, chars, draws):
    """Top-k sampling at TEMPERATURE. With `draws`, the k-th character is picked by inverse
    CDF from the k-th uniform number; without, by torch.multinomial on torch's own RNG."""
    model.eval()
    idx = torch.tensor([[stoi[c] for c in PROMPT]])
    gaps = []
    for k in range(GEN_LEN):
        logits, _ = model(idx[:, -BLOCK:])
        logits = logits[0, -1] / TEMPERATURE
        top, top_idx = torch.topk(logits, TOP_K)
        probs = F.softmax(top, dim=-1)
        if draws is None:
            pick = torch.multinomial(probs, 1)[0]
        else:
            cdf = torch.cumsum(probs, dim=0)
            pick = torch.clamp((cdf < draws[k]).sum(), max=TOP_K - 1)
            gaps.append((cdf - draws[k]).abs().min().item())
        idx = torch.cat([idx, top_idx[pick].view(1, 1)], dim=1)
    text = "".join(chars[i] for i in idx[0, len(PROMPT):].tolist())
    return text, (min(gaps) if gaps else None)
# endregion: sample


# region: evaluate
def evaluate(model, ids):
    """The mean loss over fixed windows (every 53rd offset, none padded), dropout off."""
    model.eval()
    with torch.no_grad():
        _, loss = model(*batch(ids, range(0, len(ids) - BLOCK - 1, 53)))
    model.train()
    return loss.item()
# endregion: evaluate


def summary(model):
    """Each parameter by PyTorch name: its L2 norm and every 97th value (row-major, PyTorch's
    layout). c_attn.bias is split into its q, k and v thirds; the k thirds, whose gradient is
    only rounding noise, are returned apart."""
    out, key_bias = {}, {}
    for name, p in model.named_parameters():
        w = p.detach().flatten()
        parts = zip(("q", "k", "v"), w.split(N_EMBD)) if name.endswith("c_attn.bias") else [("", w)]
        for part, v in parts:
            (key_bias if part == "k" else out)[f"{name}.{part}" if part else name] = {
                "norm": v.norm().item(), "every97": v[::97].tolist()}
    return out, key_bias


def main():
    text, chars, stoi = load_text()
    ids = torch.tensor([stoi[c] for c in text])
    order = json.loads((DATA / "order.json").read_text())["steps"]
    draws = json.loads((DATA / "draws.json").read_text())["uniform"]

    # region: load
    model = GPT(len(chars))
    model.load_state_dict(torch.load(DATA / "init.pt", weights_only=True))
    # endregion: load
    x0, y0 = batch(ids, order[0][0])
    with torch.no_grad():
        logits0, loss0 = model(x0, y0)
    # region: key_bias
    _, loss = model(x0, y0)
    loss.backward()  # the largest gradient of c_attn.bias's q, k and v thirds, over the blocks
    bias_grad = {part: max(b.attn.c_attn.bias.grad.split(N_EMBD)[i].abs().max().item() for b in model.h)
                 for i, part in enumerate("qkv")}
    model.zero_grad(set_to_none=True)
    # endregion: key_bias
    # region: autocast
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        logits_bf16, loss_bf16 = model(x0, y0)
    # endregion: autocast
    optimizer = configure_optimizer(model)

    start = time.perf_counter()
    record = train(model, optimizer, ids, order, 0, STEPS, save_at=RESUME_AT)
    seconds = time.perf_counter() - start

    # region: resume_run
    run = subprocess.run([sys.executable, "-I", __file__, "--resume", "ckpt.pt"],
                         capture_output=True, text=True, check=True)
    resumed = json.loads(run.stdout)
    after = torch.load("resumed.pt", weights_only=True)
    same_weights = all(torch.equal(after[k], v) for k, v in model.state_dict().items())
    # endregion: resume_run

    eval_loss = evaluate(model, ids)
    torch.save(model.state_dict(), "gpt.pt")
    shared_text, gap = generate(model, stoi, chars, draws)
    torch.manual_seed(SEED)
    own_text, _ = generate(model, stoi, chars, None)

    final, key_bias = summary(model)
    # region: dropout_run
    torch.manual_seed(SEED)  # the dropout masks come from torch's RNG: burn cannot draw them
    dropped = GPT(len(chars), dropout=DROPOUT_RUN)
    dropped.load_state_dict(torch.load(DATA / "init.pt", weights_only=True))
    dropped_record = train(dropped, configure_optimizer(dropped), ids, order, 0, STEPS)
    # endregion: dropout_run
    steps = lambda v, first=0: {f"step{first + k + 1:03d}": x for k, x in enumerate(v)}
    ckpt = torch.load("ckpt.pt", weights_only=True)["model"]
    print(json.dumps({
        "config": {"n_layer": N_LAYER, "n_head": N_HEAD, "n_embd": N_EMBD, "block": BLOCK,
                   "micro": MICRO, "accum": ACCUM, "steps": STEPS, "clip": CLIP,
                   "warmup": WARMUP, "max_lr": MAX_LR, "min_lr": MIN_LR},
        "vocab": "".join(chars),
        "num_params": sum(p.numel() for p in model.parameters()),
        "ckpt_keys": len(ckpt),  # wte.weight and lm_head.weight: two keys, one storage
        "ckpt_tensors": len({t.untyped_storage().data_ptr() for t in ckpt.values()}),
        "ignored_targets": sum(int((batch(ids, o)[1] == -1).sum()) for s in order for o in s),
        "init": {"loss": loss0.item(), "logits": logits0[0, -1].tolist()},
        "bias_grad": bias_grad,
        "autocast": {"logits_dtype": str(logits_bf16.dtype).removeprefix("torch."),
                     "loss_dtype": str(loss_bf16.dtype).removeprefix("torch."),
                     "loss": loss_bf16.item(), "logits": logits_bf16[0, -1].float().tolist(),
                     "max_off_f32": (logits_bf16.float() - logits0).abs().max().item()},
        "loss": steps(record["loss"]),
        "lr": steps(record["lr"]),
        "grad_norm": steps(record["grad_norm"]),
        "clipped_steps": sum(n > CLIP for n in record["grad_norm"]),
        "eval_loss": eval_loss,
        "dropout_run": {"dropout": DROPOUT_RUN, "eval_loss": evaluate(dropped, ids),
                        "last10_train_loss": sum(dropped_record["loss"][-10:]) / 10},
        "final": final,
        "final_key_bias": key_bias,
        "resume": {"from_step": RESUME_AT,
                   "loss": steps(resumed["loss"], RESUME_AT),
                   "same_losses": resumed["loss"] == record["loss"][RESUME_AT:],
                   "same_weights": same_weights},
        "sample": {"prompt": PROMPT, "shared_draws": shared_text, "min_cdf_gap": gap},
        "sample_own_rng": own_text,
        "seconds": seconds,
    }))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--resume"]:
        resume(sys.argv[2])
    else:
        main()
