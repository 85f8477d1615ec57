"""crates/<crate>/Cargo.toml made standalone: the workspace inheritance replaced by the root's
values, comments kept, an empty [workspace] of its own; checked against what the member's
manifest means."""
import json
import re
import tomllib

from ...paths import Book
from . import MEMO as _CACHE
from . import fail as _fail

DEP_TABLES = ("dependencies", "build-dependencies", "dev-dependencies")
KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")
# `edition.workspace = true` or `burn = { workspace = true, ... }` on one line.
DOTTED_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\.workspace\s*=\s*true\s*(#.*)?$")
INLINE_RE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*\{.*\bworkspace\s*=\s*true\b.*\}\s*(#.*)?$")
HEADER_RE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")




def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"TOML 写不出 {v!r}")


def toml_key(k: str) -> str:
    return k if KEY_RE.match(k) else json.dumps(k, ensure_ascii=False)


def _merge_dep(exp_id, rel, name, member: dict, root_deps: dict) -> dict:
    """A `workspace = true` dependency with the root's spec filled in (cargo's rules)."""
    if name not in root_deps:
        _fail(exp_id, f"{rel} 的依赖 {name} 写了 workspace = true，根目录 Cargo.toml 的 "
                      "[workspace.dependencies] 里没有它")
    base = root_deps[name]
    base = {"version": base} if isinstance(base, str) else dict(base)
    unknown = set(member) - {"workspace", "features", "optional", "default-features"}
    if unknown:
        _fail(exp_id, f"{rel} 的依赖 {name} 在 workspace = true 之外还写了 {sorted(unknown)}，转换器不认识")
    if "path" in base:
        _fail(exp_id, f"{rel} 的依赖 {name} 是 path 依赖，下载包里装不下它")
    feats = list(base.get("features", [])) + [f for f in member.get("features", [])
                                              if f not in base.get("features", [])]
    if feats:
        base["features"] = feats
    if member.get("optional"):
        base["optional"] = True
    return base["version"] if list(base) == ["version"] else base


def _dep_table(table: str) -> bool:
    parts = table.split(".")
    return parts[-1] in DEP_TABLES and (len(parts) == 1 or parts[0] == "target")


def _resolve(exp_id, rel, data: dict, root: dict) -> dict:
    """What the member's manifest means, inheritance filled in: the converter's reference."""
    ws = root.get("workspace", {})
    out = {}
    for table, body in data.items():
        if table == "package":
            pkg = {}
            for k, v in body.items():
                if isinstance(v, dict) and v.get("workspace") is True:
                    if k not in ws.get("package", {}):
                        _fail(exp_id, f"{rel} 的 package.{k} 写了 workspace = true，根目录 "
                                      "Cargo.toml 的 [workspace.package] 里没有它")
                    v = ws["package"][k]
                pkg[k] = v
            out[table] = pkg
        elif table in DEP_TABLES:
            out[table] = {n: _merge_dep(exp_id, rel, n, d, ws.get("dependencies", {}))
                          if isinstance(d, dict) and d.get("workspace") else d
                          for n, d in body.items()}
        else:
            out[table] = body
    return out


def _workspace_keys(v, where=""):
    """Paths of every `workspace` key left in a parsed manifest."""
    if isinstance(v, dict):
        for k, x in v.items():
            here = f"{where}.{k}" if where else k
            if k == "workspace":
                yield here
            else:
                yield from _workspace_keys(x, here)


def standalone_toml(book: Book, crate: str, exp_id: str) -> str:
    """crates/<crate>/Cargo.toml as its own workspace root: comments kept, inherited values
    written out. Any inheritance it does not know stops the build, naming the experiment."""
    key = ("toml", book.root, crate)
    if key in _CACHE:
        return _CACHE[key]
    path = book.crates / crate / "Cargo.toml"
    rel = f"crates/{crate}/Cargo.toml"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    root = tomllib.loads((book.root / "Cargo.toml").read_text(encoding="utf-8"))
    ws = root.get("workspace", {})
    for extra in ("patch", "replace"):
        if extra in root:
            _fail(exp_id, f"根目录 Cargo.toml 有 [{extra}]，转换器不知道怎么把它带进独立的 crate")
    if "workspace" in data:
        _fail(exp_id, f"{rel} 自己有 [workspace] 表，转换器不认识")
    want = _resolve(exp_id, rel, data, root)
    out, table = [], None
    for line in text.split("\n"):
        h = HEADER_RE.match(line)
        if h and "=" not in line:
            table = h.group(1).replace(" ", "")
            out.append(line)
            continue
        m = DOTTED_RE.match(line) or INLINE_RE.match(line)
        if m and table == "package":
            out.append(f"{m.group(1)} = {toml_value(want['package'][m.group(1)])}")
        elif m and table and _dep_table(table):
            name = m.group(1)
            got = tomllib.loads(line)[name]
            spec = _merge_dep(exp_id, rel, name, got, ws.get("dependencies", {}))
            out.append(f"{name} = {toml_value(spec)}")
        else:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    for prof, body in sorted(root.get("profile", {}).items()):
        out += ["", "# 根目录 Cargo.toml 的 profile 设置，原样带过来", f"[profile.{toml_key(prof)}]"]
        out += [f"{toml_key(k)} = {toml_value(v)}" for k, v in body.items()]
    edition = str(want.get("package", {}).get("edition", "2015"))
    default_resolver = {"2015": "1", "2018": "1", "2021": "2"}.get(edition, "3")
    resolver = str(ws.get("resolver", "1"))
    out += ["", "# 自成一个 workspace：不属于外面的任何 workspace，用自己的 Cargo.lock", "[workspace]"]
    if resolver != default_resolver:
        out.append(f"resolver = {toml_value(resolver)}")
    result = "\n".join(out) + "\n"
    try:
        parsed = tomllib.loads(result)
    except tomllib.TOMLDecodeError as e:
        _fail(exp_id, f"{rel} 转成的独立 Cargo.toml 不是合法的 TOML：{e}")
    left = [k for k in _workspace_keys({t: v for t, v in parsed.items() if t != "workspace"})]
    if left:
        _fail(exp_id, f"{rel} 里的 workspace 继承 {left} 转换器不认识，下载包里的 Cargo.toml 没法独立构建")
    parsed.pop("workspace")
    parsed.pop("profile", None)
    if parsed != {t: v for t, v in want.items() if t != "profile"}:
        _fail(exp_id, f"{rel} 逐行转换的结果和它的含义对不上（多行的依赖表？），转换器不认识这种写法")
    _CACHE[key] = result
    return result


def binary_name(book: Book, crate: str) -> str:
    data = tomllib.loads((book.crates / crate / "Cargo.toml").read_text(encoding="utf-8"))
    bins = data.get("bin") or []
    return bins[0]["name"] if bins and bins[0].get("name") else data["package"]["name"]


def package_name(book: Book, crate: str) -> str:
    return tomllib.loads((book.crates / crate / "Cargo.toml").read_text(encoding="utf-8"))["package"]["name"]
