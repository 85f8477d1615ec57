"""Read-only access to build_outputs/ for the macros and reports. Never runs anything."""
import json

from ..errors import BookError
from ..paths import Book

SIDES = ("python", "burn")


class Entry:
    def __init__(self, book: Book, exp_id: str):
        self.id = exp_id
        self.dir = book.outputs / exp_id
        if not (self.dir / "outcome.json").is_file():
            known = sorted(p.name for p in book.outputs.iterdir()
                           if p.is_dir() and not p.name.startswith(".")) if book.outputs.is_dir() else []
            raise BookError(f"build_outputs/ 里没有实验 {exp_id!r} 的输出"
                            f"（有的是：{', '.join(known) or '无'}）；拼写对吗？运行过 make site 吗？")

    def read(self, name: str) -> str:
        p = self.dir / name
        if not p.is_file():
            have = sorted(f.name for f in self.dir.iterdir())
            raise BookError(f"实验 {self.id} 没有输出文件 {name}（有：{', '.join(have)}）")
        return p.read_text(encoding="utf-8")

    def has(self, name: str) -> bool:
        return (self.dir / name).is_file()

    def json(self, name: str):
        return json.loads(self.read(name))

    def side_output(self, side: str) -> tuple[str, str]:
        """(text, language) of what a side printed on stdout."""
        if side not in SIDES:
            raise BookError(f"side 只能是 {SIDES}，得到 {side!r}")
        if self.has(f"{side}.json"):
            return self.read(f"{side}.json"), "json"
        if self.has(f"{side}.txt"):
            return self.read(f"{side}.txt"), "text"
        raise BookError(f"实验 {self.id} 的 {side} 侧没有标准输出（看 {side}.stderr.txt 或 "
                        f"{side}.diagnostics.txt）")

    def field(self, path: str):
        """A value by dotted path: "burn.sum", "compare.worst", "provenance.burn"."""
        head, _, rest = path.partition(".")
        sources = {
            "python": "python.json", "burn": "burn.json", "compare": "compare.json",
            "outcome": "outcome.json", "provenance": "provenance.json",
            "volatile": "volatile.json",
        }
        if head not in sources:
            raise BookError(f"字段路径 {path!r} 要以 {sorted(sources)} 之一开头")
        value = self.json(sources[head])
        walked = head
        while rest:
            if isinstance(value, dict):
                # Keys may contain dots ("fc1.weight"): take the longest key that matches.
                parts = rest.split(".")
                for i in range(len(parts), 0, -1):
                    k = ".".join(parts[:i])
                    if k in value:
                        value, rest, walked = value[k], ".".join(parts[i:]), f"{walked}.{k}"
                        break
                else:
                    raise BookError(f"实验 {self.id} 的 {walked} 里没有字段 {rest!r}"
                                    f"（有：{', '.join(sorted(value))}）")
            elif isinstance(value, list):
                idx, _, rest = rest.partition(".")
                try:
                    value, walked = value[int(idx)], f"{walked}.{idx}"
                except (ValueError, IndexError):
                    raise BookError(f"实验 {self.id} 的 {walked} 没有下标 {idx!r}") from None
            else:
                raise BookError(f"实验 {self.id} 的 {walked} 是 {value!r}，没有字段 {rest!r}")
        return value


def entry(book: Book, exp_id: str) -> Entry:
    return Entry(book, exp_id)
