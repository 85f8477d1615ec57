"""The hidden words a search entry carries besides its title and text, under either engine:
one key per identifier as code writes it, the synonyms of book/site/search_synonyms.yaml, and
the key of an error message's heading.

The engines split `nn.GRU` into nn and gru and `GradScaler` into grad and scaler (the
separator in mkdocs.yml), so a query written as code matched every section that holds its
parts. A key keeps an identifier whole: its path segments, lower-cased, each followed by
KEY_END (`nn.GRU` → nn·gru·, `GradScaler` → gradscaler·, `Tensor<B, 2>` → tensor·b·2·), one
key for every run of consecutive segments (torch.amp.GradScaler also gives torch·amp·,
amp·gradscaler·, gradscaler·), and the same again after the aliases (torch.nn.functional.x is
F.x). docs/assets/javascripts/workers/book-search.js makes the same keys from a query, and
requires the key where the index has it: exact identifiers rank above their parts, and
nn.GRUCell is not nn.GRU. Keys contain no separator character, so each is one token.
"""
import html
import re
from functools import lru_cache
from pathlib import Path

import yaml

KEY_END = "\u00b7"  # "·": no engine splits on it, no reader types it
SYNONYMS = Path(__file__).with_name("search_synonyms.yaml")
# How often one key is written per entry at most: a section that names an identifier three
# times is about it; thirty times says no more than three.
REPEAT = 3

_SEG = r"[A-Za-z_][A-Za-z0-9_]*"
_ARGS = r"(?:::)?<[^<>()]*>"  # generic arguments, one level: Tensor<B, 2>, Vec::<f32>
# An identifier as code writes it: segments joined by ".", "::" or "-" (burn-train), each
# with its generic arguments. The same pattern is PATH in book-search.js.
PATH = re.compile(rf"(?<![\w.:-]){_SEG}(?:{_ARGS})?(?:(?:\.|::|-)(?!\d){_SEG}(?:{_ARGS})?)*")
_JOIN = re.compile(r"\.|::|-")
# Where the engines split a word (mkdocs.yml's separator): a capital followed by a small letter.
_CAMEL = re.compile(r"(?<=[A-Za-z0-9])(?=[A-Z][a-z])")
_HAN = re.compile(r"[\u3400-\u9fff]")
_TAG = re.compile(r"<[^>]*>")
_LEFT_OVER = re.compile(r"[\s\u00b7,、/|;:()\[\]]+")  # between a row's spellings
# Rust's own words in a block of code: on every row, they say nothing about any.
_STOP = {"use", "pub", "fn", "let", "mut", "self", "super", "crate", "impl", "for", "in", "if",
         "else", "return", "struct", "enum", "mod", "as", "match", "where", "move", "ref", "true",
         "false", "burn", "prelude", "tensor", "int", "bool", "vec", "into", "clone", "unwrap",
         "expect", "to_vec", "device", "new", "init", "some", "none", "ok", "err", "f32", "f64",
         "i64", "i32", "usize"}
# What else splits a query into words in book-search.js (setConfig): entities, and characters
# the index only holds as entities or never.
_QUERY_SPLIT = r"&(?:amp|quot|#x?[0-9a-fA-F]+);|[<>&'#{}$;|@%~^+?\\]+"
_EXCEPTION = re.compile(r"[a-z_.]*(error|exception|warning)")
MESSAGE_WORDS = 5
_VERSION_LINE = re.compile("<p>\u200b*版本\u200b*：.*?</p>\\s*", re.S)


@lru_cache(maxsize=1)
def rules() -> dict:
    """The committed synonym groups and aliases."""
    data = yaml.safe_load(SYNONYMS.read_text(encoding="utf-8"))
    return {"synonyms": [list(map(str, g)) for g in data["synonyms"]],
            "aliases": {str(k): str(v) for k, v in data["aliases"].items()}}


def _split_top(text: str) -> list[str]:
    """Segments of a path, split at ".", "::", "-" outside generic arguments."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if depth == 0:
            m = _JOIN.match(text, i)
            if m and not text.startswith("::<", i):
                out.append(cur)
                cur, i = "", m.end()
                continue
        cur += c
        i += 1
    out.append(cur)
    return [s for s in out if s]


def _segment(seg: str) -> tuple[str, list[str]]:
    """(name, its generic arguments as words) of one segment: Tensor<B, 2> → (tensor, [b, 2])."""
    name, _, args = seg.partition("<")
    name = name.removesuffix("::")
    words = []
    for arg in args.rstrip(">").split(","):
        arg = arg.strip().lstrip("&").strip()
        if PATH.fullmatch(arg):
            words += [_segment(s)[0] for s in _split_top(arg)]
        elif re.fullmatch(r"\w+", arg):
            words.append(arg.lower())
    return name.lower(), words


def _canonical(segments: list[str], aliases: dict) -> list[str] | None:
    """The segments with a leading alias replaced (torch.nn.functional → F), or None."""
    names = [s.partition("<")[0] for s in segments]
    for prefix, short in sorted(aliases.items(), key=lambda kv: -kv[0].count(".")):
        head = prefix.split(".")
        if names[:len(head)] == head and len(names) > len(head):
            return [short] + segments[len(head):]
    return None


def _keys_of_segments(segments: list[str]) -> list[str]:
    """Keys of every run of consecutive segments, the longest first: nn.Module.eval holds
    nn.Module and Module.eval too."""
    parsed = [_segment(s) for s in segments]
    out = []
    for length in range(len(parsed), 0, -1):
        for start in range(len(parsed) - length + 1):
            run = parsed[start:start + length]
            # A single segment is a key only when the engines split it (GradScaler, GRUCell)
            # or it has arguments (Tensor<B, 2>).
            if length > 1 or len(_CAMEL.split(segments[start].partition("<")[0])) > 1:
                out.append(KEY_END.join(n for n, _ in run) + KEY_END)
            if any(a for _, a in run):
                out.append(KEY_END.join(w for n, a in run for w in [n, *a]) + KEY_END)
    return out


def identifier_keys(identifier: str, aliases: dict | None = None) -> list[str]:
    """The keys of one identifier as written (`torch.nn.GRU`, `Tensor<B, 2>`), most exact first."""
    aliases = rules()["aliases"] if aliases is None else aliases
    segments = _split_top(identifier.strip().lstrip("&*`").strip())
    keys = _keys_of_segments(segments)
    canonical = _canonical(segments, aliases)
    if canonical:
        keys = _keys_of_segments(canonical) + keys
    return list(dict.fromkeys(keys))


def plain(field: str) -> str:
    """An index field as a reader sees it: no tags, no entities, no word-break marks."""
    return html.unescape(_TAG.sub(" ", field.replace("\u200b", "")))


def _synonym_words(group: list[str]) -> list[str]:
    """A group as index words: Chinese as written, a code-like word as its key, others lower-cased."""
    out = []
    for w in group:
        if _HAN.search(w) or not PATH.fullmatch(w):
            out.append(w.lower())
        else:
            out += identifier_keys(w)[:1] or [w.lower()]
    return out


def _mentions(text: str, word: str) -> int:
    if _HAN.search(word):
        return text.count(word)
    return len(re.findall(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I))


def keys(field: str, title: bool = False) -> list[str]:
    """The hidden words for one field (an entry's title or text): each identifier's keys and
    each synonym group it mentions, a word repeated as often as the field names it (up to
    REPEAT). A title that is one identifier (a map row with one spelling, nn.GRU) is about it
    more than a title that lists four: its keys count REPEAT times, as if it named them so often.
    A title that is a sentence counts each once."""
    text = plain(field)
    r = rules()
    counts: dict[str, int] = {}
    found = [m.group(0) for m in PATH.finditer(text)]
    found = [(f, identifier_keys(f, r["aliases"])) for f in found]
    # A title of identifiers only (a map row's spellings), not a sentence that names one.
    only_code = title and found and not _LEFT_OVER.sub("", PATH.sub("", text))
    weight = max(1, REPEAT // len(found)) if only_code else 1
    for _, ks in found:
        for k in ks:
            counts[k] = counts.get(k, 0) + weight
    for group in r["synonyms"]:
        n = sum(_mentions(text, w) for w in group)
        if n:
            for w in _synonym_words(group):
                counts[w] = counts.get(w, 0) + n * weight
    return [k for k, n in counts.items() for _ in range(min(n, REPEAT))]


def code_words(code: str) -> list[str]:
    """A block of code as hidden words: the keys of its identifiers and each of its names once
    (a map row's burn module: mask_fill, GradientsAccumulator, HalfPrecisionAdapter)."""
    if not code:
        return []
    names = dict.fromkeys(w.lower() for m in PATH.finditer(code)
                          for s in _split_top(m.group(0)) for w in [_segment(s)[0]] if len(w) > 1)
    return keys(code) + [n for n in names if n not in _STOP]


def message_key(heading: str, separator: str) -> str:
    """The key of an error message (a pitfall's heading under 报错原文): its first MESSAGE_WORDS
    words after the code (error[E0369]) or the exception's class, split as the engines split
    words. book-search.js makes the same key from a pasted message, with or without its code,
    and asks for it first: index 4 out of bounds… is not index 5 is out of bounds…"""
    words = [w.lower() for w in re.split(f"{separator}|{_QUERY_SPLIT}", plain(heading)) if w]
    while words and (re.fullmatch(r"error|e\d{4}", words[0]) or _EXCEPTION.fullmatch(words[0])):
        words.pop(0)
    if len(words) < MESSAGE_WORDS:
        return ""
    return "msg" + KEY_END + KEY_END.join(words[:MESSAGE_WORDS]) + KEY_END


def without_version_line(text: str) -> str:
    """A section's text without its version line (versions.version_line): a result's teaser
    is the section's first sentence, not 「版本：PyTorch 2.15.0…」 on every content page and pitfall."""
    return _VERSION_LINE.sub("", text)
