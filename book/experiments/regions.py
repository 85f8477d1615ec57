"""The burn side of a map row is the code that ran: in the row's crate, each row is one inline
module named by the row's id (`mod sort { use ...; pub fn run(...) }`), in the src/ file of its
topic, with its own `use` lines and nothing from the rest of the crate, so that its body, shown
as it is, compiles where a reader pastes it. Read here once per crate; the pages and the cells test take it from here."""
import re
from pathlib import Path

# A row module starts at column 0 and ends at the first `}` alone at column 0.
MOD_RE = re.compile(r"^mod (?:r#)?([a-z0-9_]+) \{\n(.*?)^\}$", re.M | re.S)
USE_RE = re.compile(r"^use [^;]+;", re.M | re.S)
# Outside names a pasted body would not have.
OUTSIDE_RE = re.compile(r"\b(super|crate)::")
LEAK_RE = re.compile(r"macro_rules!|extern crate|#\[macro_use\]")

_MEMO: dict = {}


def reset():
    _MEMO.clear()


def _dedent(body: str) -> str:
    lines = body.rstrip("\n").split("\n")
    out = []
    for line in lines:
        if line.strip() and not line.startswith("    "):
            raise ValueError(f"模块体的行要缩进 4 个空格：{line!r}")
        out.append(line[4:])
    return "\n".join(out).strip("\n") + "\n"


def row_modules(src: Path) -> dict:
    """{row id: the module's body, dedented}, over every .rs file of a crate's src/ (main.rs
    and the topic files); ValueError names what is wrong with a module."""
    return _scan(src)[0]


def module_files(src: Path) -> dict:
    """{row id: the name of the src/ file its module is in}."""
    return _scan(src)[1]


def _scan(src: Path) -> tuple[dict, dict]:
    files = sorted(src.glob("*.rs"))
    key = (src, tuple((f.name, f.stat().st_mtime_ns) for f in files))
    if key in _MEMO:
        return _MEMO[key]
    out, where = {}, {}
    for f in files:
        text = f.read_text(encoding="utf-8")
        mods = list(MOD_RE.finditer(text))
        # What a module could see of the crate without super:: or crate::: macros by textual
        # scope (main.rs's reach into every topic file it declares) and the extern prelude.
        # Refused, so that each module compiles alone.
        rest = MOD_RE.sub("", text)
        leak = LEAK_RE.search(rest)
        if leak:
            raise ValueError(f"{f.name}：行模块之外有 {leak.group(0)!r}：它会被行模块看见，粘贴出去的代码就缺了它")
        for m in mods:
            rid, body = m.group(1), _dedent(m.group(2))
            if rid in out:
                raise ValueError(f"mod {rid} 出现了两次（{where[rid]} 和 {f.name}）")
            if OUTSIDE_RE.search(body):
                raise ValueError(f"{f.name}：mod {rid} 用了 super:: 或 crate::：一行的代码要自带它用到的一切")
            if not USE_RE.search(body):
                raise ValueError(f"{f.name}：mod {rid} 没有 use 行：读者粘贴过去要能编译")
            out[rid], where[rid] = body, f.name
    _MEMO[key] = (out, where)
    return out, where


def split_uses(body: str) -> tuple[str, str]:
    """(the leading `use` lines, the rest) of a row's body; a use may span lines to its `;`."""
    lines, i, uses = body.split("\n"), 0, []
    while i < len(lines):
        if lines[i].startswith("use "):
            j = i
            while j + 1 < len(lines) and not lines[j].rstrip().endswith(";"):
                j += 1
            uses += lines[i:j + 1]
            i = j + 1
        elif uses and not lines[i].strip():
            i += 1
        else:
            break
    return "\n".join(uses) + "\n", "\n".join(lines[i:]).strip("\n") + "\n"
