"""torch.compile on gpt.py's model, on this CPU: the first COMPILE_STEPS optimizer steps of
gpt.py (same init.pt, batches, learning rate, clipping, AdamW groups) once eager and once with
the model compiled (inductor, which writes and builds C++ kernels here), both on one thread.
Compares the losses of the two runs, and times the first step (which compiles) and the median
of the others.
"""
import json
import os
import statistics
import sys
import time
from pathlib import Path

# An empty kernel cache in the run's own folder: the first compiled step compiles from scratch
# (inductor otherwise reuses what an earlier run left in /tmp).
os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.abspath("inductor_cache")

import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpt import DATA, GPT, configure_optimizer, load_text, train  # noqa: E402

COMPILE_STEPS = 12
# One thread: the compiled kernels' parallel reductions otherwise add in a different order from
# one run to the next (the last bit of a loss changed between two runs here).
torch.set_num_threads(1)


def run(compiled):
    """gpt.py's train(), one optimizer step at a time: the losses and each step's wall time."""
    text, chars, stoi = load_text()
    ids = torch.tensor([stoi[c] for c in text])
    order = json.loads((DATA / "order.json").read_text())["steps"]
    model = GPT(len(chars))
    model.load_state_dict(torch.load(DATA / "init.pt", weights_only=True))
    optimizer = configure_optimizer(model)
    # region: compile
    forward = torch.compile(model) if compiled else model  # the same parameters either way
    # endregion: compile
    losses, seconds = [], []
    for step in range(COMPILE_STEPS):
        start = time.perf_counter()
        losses += train(forward, optimizer, ids, order, step, step + 1)["loss"]
        seconds.append(time.perf_counter() - start)
    return losses, seconds


def main():
    eager, eager_s = run(False)
    compiled, compiled_s = run(True)
    steps = lambda v: {f"step{k + 1:03d}": x for k, x in enumerate(v)}
    print(json.dumps({
        "steps": COMPILE_STEPS,
        "eager": steps(eager),
        "compiled": steps(compiled),
        "compiled_vs_eager": max(abs(a - b) for a, b in zip(eager, compiled)),
        "seconds": {"eager_first": eager_s[0], "eager_median": statistics.median(eager_s[1:]),
                    "compiled_first": compiled_s[0], "compiled_median": statistics.median(compiled_s[1:])},
    }))


if __name__ == "__main__":
    main()
