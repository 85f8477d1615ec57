"""gpt.py's first DDP_STEPS optimizer steps two ways: in one process with gradient
accumulation over the step's two micro-batches (as gpt.py trains), and with
DistributedDataParallel on the gloo backend, two processes on 127.0.0.1, each taking one
micro-batch (half of the global batch); DDP averages their gradients. Same init.pt, same
order.json, same learning rate, clipping and AdamW groups as gpt.py. The DDP record is printed
a second time as multi_mean, the field burn-train's multi route is compared on.
"""
import json
import os
import socket
import sys
import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpt import CLIP, DATA, GPT, batch, configure_optimizer, get_lr, load_text, train  # noqa: E402

DDP_STEPS = 10


def setup():
    text, chars, stoi = load_text()
    ids = torch.tensor([stoi[c] for c in text])
    order = json.loads((DATA / "order.json").read_text())["steps"]
    model = GPT(len(chars))
    model.load_state_dict(torch.load(DATA / "init.pt", weights_only=True))
    return ids, order, model


# region: ddp
def worker(rank, port, out):
    torch.set_num_threads(1)  # two processes on two cores
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=2)
    ids, order, model = setup()
    ddp = DDP(model)  # broadcasts rank 0's weights; all-reduces (averages) gradients
    optimizer = configure_optimizer(model)
    record = {"loss": [], "grad_norm": []}
    for step in range(DDP_STEPS):
        for group in optimizer.param_groups:
            group["lr"] = get_lr(step)
        x, y = batch(ids, order[step][rank])  # this process's half of the global batch
        _, loss = ddp(x, y)
        loss.backward()  # the gradients arrive averaged over both processes
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        mean = loss.detach().clone()
        dist.all_reduce(mean)  # the global batch's loss, for the record
        record["loss"].append(mean.item() / 2)
        record["grad_norm"].append(norm.item())
    if rank == 0:
        weights = {k: v.flatten()[::97].tolist() for k, v in model.state_dict().items()}
        Path(out).write_text(json.dumps({**record, "every97": weights}))
    dist.destroy_process_group()


def run_ddp():
    with socket.socket() as s:  # a free port on 127.0.0.1
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rank0.json")
        mp.spawn(worker, args=(port, out), nprocs=2, join=True)
        return json.loads(Path(out).read_text())
# endregion: ddp


def main():
    ids, order, model = setup()
    single = train(model, configure_optimizer(model), ids, order, 0, DDP_STEPS)
    single["every97"] = {k: v.flatten()[::97].tolist() for k, v in model.state_dict().items()}
    ddp = run_ddp()
    steps = lambda v: {f"step{k + 1:03d}": x for k, x in enumerate(v)}
    diff = max(abs(a - b) for a, b in zip(single["loss"], ddp["loss"]))
    print(json.dumps({
        "steps": DDP_STEPS,
        "single": {"loss": steps(single["loss"]), "grad_norm": steps(single["grad_norm"])},
        "ddp": {"loss": steps(ddp["loss"]), "grad_norm": steps(ddp["grad_norm"])},
        # What burn-train's multi route, each device's loss halved, is compared with: DDP.
        "multi_mean": {"loss": steps(ddp["loss"]), "grad_norm": steps(ddp["grad_norm"])},
        "ddp_vs_single_loss": diff,
        "ddp_vs_single_weights": max(abs(a - b) for k in single["every97"]
                                     for a, b in zip(single["every97"][k], ddp["every97"][k])),
    }))


if __name__ == "__main__":
    main()
