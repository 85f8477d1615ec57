"""Writes the files that crates/cap-gpt commits under data/. Run by hand after changing
gpt.py's model or data constants (`.venv/bin/python experiments/capstone/make_gpt_data.py`)
and commit them:
- zen.txt: the Zen of Python (PEP 20, in the public domain; `import this` holds it in rot13);
- init.pt: GPT's state_dict right after torch.manual_seed(0), with the script's own init;
- order.json: for each optimizer step, each micro-batch's window offsets, drawn with a torch
  generator seeded 0, so that neither side needs torch's RNG while training;
- draws.json: the uniform numbers that pick each sampled character, so both sides can
  sample the same text.
"""
import codecs
import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpt import ACCUM, DATA, GEN_LEN, MICRO, STEPS, GPT, load_text  # noqa: E402

import torch  # noqa: E402

with contextlib.redirect_stdout(io.StringIO()):
    import this  # noqa: E402  (prints the text on import)

DATA.mkdir(parents=True, exist_ok=True)
(DATA / "zen.txt").write_text(codecs.decode(this.s, "rot13"), encoding="utf-8")

text, chars, stoi = load_text()
torch.manual_seed(0)
torch.save(GPT(len(chars)).state_dict(), DATA / "init.pt")

g = torch.Generator().manual_seed(0)
# The last offset is len - 2, so every window has at least one real target.
offsets = torch.randint(0, len(text) - 1, (STEPS, ACCUM, MICRO), generator=g)
(DATA / "order.json").write_text(json.dumps({"steps": offsets.tolist()}, separators=(",", ":")) + "\n")
draws = torch.rand(GEN_LEN, generator=torch.Generator().manual_seed(1))
(DATA / "draws.json").write_text(json.dumps({"uniform": draws.tolist()}) + "\n")
print(f"written: {len(text)} characters, {len(chars)} symbols, {STEPS}x{ACCUM}x{MICRO} windows")
