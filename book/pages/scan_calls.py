"""How a row of the torch → burn map calls each of its spellings, read from the row's own
PyTorch text (`nn.Conv2d(2, 3, 3, padding=1, padding_mode='reflect')`, `Adam(p).defaults['eps']`)
for the script scanner's rules (book/pages/scan_rules.py). The texts are short, written by
authors, sometimes with Chinese comments or a `…`: this reads tokens, never a parse tree.

For one spelling a row gives one of:
- call: the text calls the spelling itself (or, as a sibling, another spelling of the row for the
  same operation: `nn.CrossEntropyLoss(label_smoothing=0.1)` for F.cross_entropy): its keyword arguments with
  their literal values, how many arguments, whether it is nested in another call's arguments;
- kw: no call, but `name=value` pairs at the top of the text (`norm_first=True：…`);
- mention: neither (`bn(x); bn.running_var` for nn.BatchNorm1d)."""
import keyword
import re

# The receivers a method spelling names (Tensor.sort, nn.Module.eval, …): a call `x.sort(…)`
# on anything that is not a module path is one of these.
METHOD_PREFIXES = ("Tensor.", "nn.Module.", "torch.optim.Optimizer.", "torch.Generator.")
# Module paths in the rows' texts; a call under one of them is a function, not a method.
ROOTS = {"torch", "nn", "F"}
TOKEN = re.compile(r"""(?P<str>[rRbBuUfF]{0,2}'(?:[^'\\]|\\.)*'|[rRbBuUfF]{0,2}"(?:[^"\\]|\\.)*")"""
                   r"|(?P<num>(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?j?)"
                   r"|(?P<name>[A-Za-z_]\w*)"
                   r"|(?P<op>\*\*|//|==|!=|<=|>=|->|[()\[\]{}.,:;=+\-*/%@<>~&|^!])"
                   r"|(?P<other>\S)")
OPEN, CLOSE = "([{", ")]}"
NOT_CALLEE = set(keyword.kwlist) - {"True", "False", "None"}


def form(spelling: str) -> str:
    """method (Tensor.sort), module (nn.Conv2d: a class, called to build) or fn (torch.sort)."""
    if spelling.startswith(METHOD_PREFIXES):
        return "method"
    return "module" if spelling.rsplit(".", 1)[-1][:1].isupper() else "fn"


def split_comment(text: str) -> tuple[str, str]:
    """Code and the comment after its `#` (a `#` inside a string is code)."""
    for m in TOKEN.finditer(text):
        if m.group("other") == "#":
            return text[:m.start()], text[m.end():]
    return text, ""


def tokens(code: str) -> list[tuple[str, str]]:
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(code)]


def _pairs(toks) -> dict:
    """{index of an opening bracket: index of its closing one} (unclosed ones run to the end)."""
    out, stack = {}, []
    for i, (kind, v) in enumerate(toks):
        if kind == "op" and v in OPEN:
            stack.append(i)
        elif kind == "op" and v in CLOSE and stack:
            out[stack.pop()] = i
    for i in stack:
        out[i] = len(toks)
    return out


def _split_args(toks, a: int, b: int) -> list[list]:
    """The arguments between toks[a] and toks[b] (exclusive), split at top-level commas."""
    out, cur, depth = [], [], 0
    for kind, v in toks[a:b]:
        if kind == "op" and v in OPEN:
            depth += 1
        elif kind == "op" and v in CLOSE:
            depth -= 1
        if depth == 0 and (kind, v) == ("op", ","):
            out.append(cur)
            cur = []
        else:
            cur.append((kind, v))
    if cur:
        out.append(cur)
    return out


def number(text: str, negative: bool = False) -> str:
    """A number literal as the rules record it, keeping what tells rows apart: i:<int> or
    f:<float>, with its sign (ignore_index=-1 is not ignore_index=1, arange(0, 5) not
    arange(0., 5.)); x for a complex one."""
    t = text.replace("_", "")
    if t[-1:] in "jJ":
        return "x"
    try:
        v = int(t, 0) if re.fullmatch(r"0[xXoObB][0-9a-fA-F]+|\d+", t) else float(t)
    except ValueError:
        return "x"
    kind = "i" if isinstance(v, int) else "f"
    return f"{kind}:{'-' if negative else ''}{v}"


# torch's dtypes by every name they go by: dtype=torch.long is dtype=torch.int64.
DTYPES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
          "short": "int16", "cfloat": "complex64", "cdouble": "complex128"}
DTYPE_NAMES = {"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
               "bool", "complex64", "complex128"} | set(DTYPES)


def dtype(name: str) -> str | None:
    """d:<canonical name> for torch.<name> when it is a dtype (torch.long → d:int64), else None."""
    return "d:" + DTYPES.get(name, name) if name in DTYPE_NAMES else None


def dtype_names() -> dict:
    """{every name of a dtype: its canonical name}: the rules carry it, so the scanner reads a
    script's dtype=torch.long with this very table."""
    return {n: DTYPES.get(n, n) for n in sorted(DTYPE_NAMES)}


def literal(arg: list) -> str:
    """What an argument is, as the rules record it: s:<text>, b:True, none, i:<int> or f:<float>
    (numbers, signed), d:<dtype> (torch.long is d:int64), dict (a dict display), dlist (a list
    of them: parameter groups), or x (anything else)."""
    toks = [t for t in arg if t != ("op", "+")]
    if len(toks) == 2 and toks[0] == ("op", "-") and toks[1][0] == "num":
        return number(toks[1][1], negative=True)
    if len(toks) == 3 and toks[0] == ("name", "torch") and toks[1] == ("op", ".") and dtype(toks[2][1]):
        return dtype(toks[2][1])
    if len(toks) == 1:
        kind, v = toks[0]
        if kind == "str":
            return "s:" + re.sub(r"^[rRbBuUfF]*", "", v)[1:-1]
        if kind == "num":
            return number(v)
        if v in ("True", "False"):
            return "b:" + v
        if v == "None":
            return "none"
    if toks and toks[0] == ("op", "{") and ("op", ":") in toks and ("name", "for") not in toks:
        return "dict"
    if toks and toks[0] in (("op", "["), ("op", "(")) and len(toks) > 1 and toks[1] == ("op", "{"):
        return "dlist"
    return "x"


def calls(code: str) -> list[dict]:
    """Every call in a piece of code: its callee as dotted names, whether it is a method on a
    value (x.sort, f(x).mean), its arguments, and whether it sits in another call's arguments."""
    toks = tokens(code)
    pairs = _pairs(toks)
    out, enclosing = [], []  # enclosing: (close index, is a call) of the brackets we are in
    for i, (kind, v) in enumerate(toks):
        while enclosing and enclosing[-1][0] < i:
            enclosing.pop()
        if kind != "op" or v not in OPEN:
            continue
        prev = toks[i - 1] if i else ("op", "")
        is_call = v == "(" and (prev[0] == "name" and prev[1] not in NOT_CALLEE
                                or prev in (("op", ")"), ("op", "]")))
        if is_call:
            chain, j = [], i - 1
            while j >= 0 and toks[j][0] == "name":
                chain.insert(0, toks[j][1])
                if j >= 1 and toks[j - 1] == ("op", "."):
                    j -= 2
                else:
                    j -= 1
                    break
            on_value = j >= 0 and toks[j] in (("op", ")"), ("op", "]")) and toks[j + 1] == ("op", ".")
            method = on_value or (len(chain) > 1 and chain[0] not in ROOTS)
            args = _split_args(toks, i + 1, pairs[i]) if chain else []
            out.append({"chain": chain, "method": method, "args": args, "close": pairs[i],
                        "nested": any(c for _, c in enclosing)})
        enclosing.append((pairs[i], is_call))
    return [c for c in out if c["chain"]]


def normalize(path: str, aliases: list[list[str]]) -> str:
    for old, new in aliases:
        if path == old or path.startswith(old + "."):
            return new + path[len(old):]
    return path


def matches(call: dict, spelling: str, aliases: list[list[str]]) -> bool:
    """Whether a call in a row's text is this spelling: a method by its name, a function or a
    class by its path after the aliases, or by its last parts (`SGD(…)`, `lr_scheduler.StepLR`)."""
    if call["chain"][-1] != spelling.rsplit(".", 1)[-1]:
        return False
    if form(spelling) == "method":
        return call["method"]
    if call["method"]:
        return False
    dotted = normalize(".".join(call["chain"]), aliases)
    return spelling == dotted or spelling.endswith("." + dotted)


def _keyword(arg: list) -> str | None:
    if len(arg) >= 2 and arg[0][0] == "name" and arg[1] == ("op", "="):
        return arg[0][1]
    return None


def _describe(call: dict, kind: str, spelling: str) -> dict:
    kws, pos, disp, lits = {}, 0, [], []
    for arg in call["args"]:
        name = _keyword(arg)
        if name:
            kws[name] = literal(arg[2:])
        elif arg and arg[0] not in (("op", "*"), ("op", "**")):
            lits.append(literal(arg))
            if lits[-1] in ("dict", "dlist"):
                disp.append(pos)
            pos += 1
    return {"kind": kind, "k": kws, "pos": pos, "n": pos + len(kws), "form": form(spelling),
            "top": not call["nested"], "disp": disp, "pl": lits}


def _top_keywords(code: str) -> dict:
    """`name=value` pairs outside any bracket: a row whose text states a setting in prose."""
    toks, out, depth = tokens(code), {}, 0
    for i, (kind, v) in enumerate(toks):
        if kind == "op" and v in OPEN:
            depth += 1
        elif kind == "op" and v in CLOSE:
            depth -= 1
        elif depth == 0 and kind == "name" and i + 2 < len(toks) and toks[i + 1] == ("op", "="):
            out[v] = literal([toks[i + 2]])
    return out


def operation(spelling: str) -> str:
    """The operation a spelling names, whatever its form: F.cross_entropy, nn.CrossEntropyLoss
    and torch.nn.functional.cross_entropy are all crossentropy; Tensor.sum and torch.sum sum."""
    last = spelling.rsplit(".", 1)[-1].rstrip("_").replace("_", "").lower()
    return last[:-4] if last.endswith("loss") and len(last) > 4 else last


def _first(code: str, spelling: str, names: list[str], aliases: list[list[str]]):
    """The call of the spelling in the code, else of a sibling: another spelling of the row for
    the same operation (nn.CrossEntropyLoss for F.cross_entropy; not torch.save for torch.load,
    which a row may list because it saves before it loads). (call, its spelling)."""
    found = calls(code)
    op = operation(spelling)
    for s in [spelling] + [n for n in names if n != spelling and operation(n) == op]:
        for c in found:
            if matches(c, s, aliases):
                return c, s
    return None, None


def call_info(text: str, spelling: str, names: list[str], aliases: list[list[str]]) -> dict:
    code, _ = split_comment(text)
    call, s = _first(code, spelling, names, aliases)
    if call is not None:
        return _describe(call, "call" if s == spelling else "sib", s)
    kws = _top_keywords(code)
    if kws:
        return {"kind": "kw", "k": kws, "pos": 0, "n": len(kws), "form": None, "top": True, "disp": [], "pl": []}
    return {"kind": "mention"}


def about_names(text: str, spelling: str, names: list[str], row_id: str,
                aliases: list[list[str]]) -> list[str]:
    """What a default row (default_adam_eps: `Adam(p).defaults['eps']`) is about: the names
    after its call (attributes, subscripts, the comment), or every name of a text without a
    call, and each tail of its id (adamw_weight_decay → weight_decay, decay); minus the keywords
    its own call writes (default_sgd_momentum is about SGD *with* momentum)."""
    code, comment = split_comment(text)
    call, _ = _first(code, spelling, names, aliases)
    if call is not None:
        rest = tokens(code)[call["close"] + 1:] + tokens(comment)
    else:
        rest = tokens(code) + tokens(comment)
    out = {v for kind, v in rest if kind == "name" and not keyword.iskeyword(v)}
    out |= {re.sub(r"^[rRbBuUfF]*", "", v)[1:-1] for kind, v in rest if kind == "str"}
    parts = row_id.removeprefix("default_").split("_")
    out |= {"_".join(parts[i:]) for i in range(len(parts))}
    if call is not None:
        out -= set(_describe(call, "call", spelling)["k"])
    return sorted(x for x in out if x.isidentifier())


def methods_called(text: str) -> list[str]:
    """The methods a row's text calls on values (scaler.step, sched.step): a method of a torch
    object that no spelling names matches the rows of that object's class that call it."""
    return sorted({c["chain"][-1] for c in calls(split_comment(text)[0]) if c["method"]})


# The positional parameters, in torch's order, of the spellings whose map rows write as a keyword
# a parameter scripts pass by position, where the next position is not that parameter:
# nn.RNN(ninp, nhid, nlayers) binds num_layers, not the batch_first of nn.RNN(3, 4, batch_first=True);
# torch.multinomial(p, 1) binds num_samples, which a row's when: reads. A spelling not listed
# binds nothing by name (tests/scan checks each list against torch's own signature).
_LAYER = "d_model nhead dim_feedforward dropout activation layer_norm_eps batch_first norm_first bias"
POSITIONAL = {
    "nn.RNN": "input_size hidden_size num_layers nonlinearity bias batch_first dropout bidirectional",
    "nn.LSTM": "input_size hidden_size num_layers bias batch_first dropout bidirectional proj_size",
    "nn.GRU": "input_size hidden_size num_layers bias batch_first dropout bidirectional",
    "nn.MultiheadAttention": "embed_dim num_heads dropout bias add_bias_kv add_zero_attn kdim vdim batch_first",
    "nn.TransformerEncoderLayer": _LAYER, "nn.TransformerDecoderLayer": _LAYER,
    "torch.multinomial": "input num_samples replacement",
}


def positional(spelling: str) -> list[str] | None:
    """The parameter names a call of this spelling binds by position, or None: a method on a
    tensor binds those of its torch.* function after the input (Tensor.multinomial(1) is
    num_samples)."""
    if spelling in POSITIONAL:
        return POSITIONAL[spelling].split()
    if spelling.startswith("Tensor."):
        fn = POSITIONAL.get("torch." + spelling[len("Tensor."):], "").split()
        return fn[1:] if fn[:1] == ["input"] else None
    return None


# What a row's when: says that the scan can check: a parameter compared with a number
# (「一次抽不止一个（num_samples > 1）时」), or a layer the script uses (「模型里有 nn.LSTM 时」: a
# call of any spelling that starts so, nn.BatchNorm for nn.BatchNorm1d/2d/3d; several named, any
# of them). The rest of the text is for the reader.
CONDITION = re.compile(r"\b([A-Za-z_]\w*)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?)")
LAYER = re.compile(r"\b(nn\.[A-Z][A-Za-z0-9]*|F\.[a-z_][a-z0-9_]*)")


def conditions(when: str | None) -> list[dict]:
    """[{p: parameter, op, v: number}] (all must hold) and [{has: spelling prefix}] (one must)
    read from a when: text."""
    if not when:
        return []
    out = [{"p": p, "op": op, "v": float(v)} for p, op, v in CONDITION.findall(when)]
    return out + [{"has": s} for s in LAYER.findall(when)]
