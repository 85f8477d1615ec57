"""Writes the files that crates/cap-charlm commits under data/. Run by hand after changing
charlm.py's model or data constants (`.venv/bin/python experiments/capstone/make_charlm_data.py`)
and commit them:
- zen.txt: the Zen of Python (`import this`; this.s is its rot13 text);
- init.pt: CharLM's state_dict right after torch.manual_seed(0), in PyTorch's own names;
- order.json: the window order of each epoch, what DataLoader(shuffle=True) with a generator
  seeded 0 draws (a RandomSampler), so that neither side needs torch's RNG while training.
"""
import codecs
import contextlib
import io
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from charlm import BATCH, DATA, STEPS, CharLM, load_text, split  # noqa: E402

import torch  # noqa: E402
from torch.utils.data import RandomSampler  # noqa: E402

with contextlib.redirect_stdout(io.StringIO()):
    import this  # noqa: E402  (prints the text on import)

DATA.mkdir(parents=True, exist_ok=True)
(DATA / "zen.txt").write_text(codecs.decode(this.s, "rot13"), encoding="utf-8")

text, chars, stoi = load_text()
torch.manual_seed(0)
torch.save(CharLM(len(chars)).state_dict(), DATA / "init.pt")

train, _ = split(torch.tensor([stoi[c] for c in text]))
sampler = RandomSampler(train, generator=torch.Generator().manual_seed(0))
epochs = math.ceil(STEPS / (len(train) // BATCH))
order = {"epochs": [list(sampler) for _ in range(epochs)]}
(DATA / "order.json").write_text(json.dumps(order, separators=(",", ":")) + "\n")
print(f"written: {len(text)} characters, {len(chars)} symbols, {len(train)} windows, {epochs} epochs")
