"""Real `mkdocs build --strict` runs of a scratch site: escaping, structure and macro errors."""
import html
import os
import re
import subprocess

import pytest

from book import normalize
from conftest import REPO, VENV_PY, write

BURN_TXT = ("<script>alert(1)</script>\n"
            "``` this line must not close the fence\n"
            "{{ secret }}\n"
            "END-OF-OUTPUT\n")
MSG = "<script>alert(2)</script> {{ secret }}"
# A manifest's `why`, a panic message: text, not Markdown.
WHY = "call __init__ twice; 2*3*4 terms"

INDEX = """# Escaping

{{ side_output("esc", "burn") }}

After the output.

Value: {{ value("esc", "python.msg") }}

Why: {{ value("esc", "python.why") }}
"""

PITFALL_NO_CAUSE = """---
kind: pitfall
---

# A pitfall

## PyTorch 的写法

a

## 照搬到 burn

b

## 现象

c

## 改法

d

## 怎么检查

e

## 小结

f
"""

CONTENT_NO_VERSION = """---
kind: content
---

# A content page

## 主线位置

Where this sits.

```mermaid
flowchart LR
  a --> b
```

## 细节

x

## 对得上

y

## 小结

z
"""


def make_site(root, pages):
    """A scratch book: the real config (nav cut to index.md), engine and macros linked in."""
    conf = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    conf = conf[:conf.index("\nnav:")] + "\nnav:\n  - index.md\n"
    write(root / "mkdocs.yml", conf)
    os.symlink(REPO / "book", root / "book")
    os.symlink(REPO / "macros", root / "macros")
    write(root / "docs" / "assets" / "book.css", "")
    os.symlink(REPO / "overrides", root / "overrides")
    write(root / "docs" / "assets" / "search.js", "")
    for name, text in pages.items():
        write(root / "docs" / name, text)
    out = root / "build_outputs" / "esc"
    write(out / "burn.txt", BURN_TXT)
    write(out / "python.json", normalize.dump_json({"msg": MSG, "why": WHY}))
    ok = {"expected": {"kind": "ok"}, "actual": {"status": "ok", "exit_code": 0}}
    write(out / "outcome.json", normalize.dump_json({"python": ok, "burn": ok}))
    return root


def mkdocs_build(root, env):
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict",
                        "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
                       cwd=root, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = make_site(tmp_path_factory.mktemp("esc"), {"index.md": INDEX})
    code, out = mkdocs_build(root, dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert code == 0, out
    return (root / "site" / "index.html").read_text(encoding="utf-8")


def test_no_raw_script_reaches_the_page(built):
    assert "<script>alert" not in built
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in built
    # value() text is entity-encoded: the browser shows it literally, as text.
    assert "<script>alert(2)</script>" in html.unescape(built)


def test_jinja_in_outputs_is_not_evaluated(built):
    # on_undefined is strict: had `secret` been evaluated, the build would have failed.
    assert html.unescape(built).count("{{ secret }}") == 2


def test_value_text_is_not_read_as_markdown(built):
    (why,) = re.findall(r"<p>Why: (.*?)</p>", built)
    assert "<" not in why and "_" not in why and "*" not in why  # no markup was made of it
    assert html.unescape(why) == WHY


def test_fence_in_output_does_not_break_the_block(built):
    blocks = [b for b in re.findall(r"<pre\b.*?</pre>", built, re.S) if "alert(1)" in b]
    assert len(blocks) == 1
    (block,) = blocks
    text = re.sub(r"<[^>]+>", "", block)
    assert "``` this line must not close the fence" in text
    assert "{{ secret }}" in text and "END-OF-OUTPUT" in text
    assert "<p>After the output.</p>" in built


@pytest.mark.parametrize("page, text, words", [
    ("pit.md", PITFALL_NO_CAUSE, ["应为 '原因'"]),
    ("content.md", CONTENT_NO_VERSION, ["版本行"]),
    ("bad.md", '# Bad\n\n{{ value("no-such-exp", "burn.x") }}\n', ["no-such-exp"]),
])
def test_broken_page_fails_the_build(tmp_path, mkdocs_env, page, text, words):
    root = make_site(tmp_path, {"index.md": INDEX, page: text})
    code, out = mkdocs_build(root, mkdocs_env)
    assert code != 0, out
    assert f"页面 {page}" in out
    for w in words:
        assert w in out
    assert not (root / "site" / page.replace(".md", "") / "index.html").exists()


@pytest.mark.parametrize("page, text, words", [
    ("bad.md", '# Bad\n\n{{ value("no-such-exp", "burn.x") }}\n',
     ["错误：页面 bad.md：value('no-such-exp', 'burn.x')", "no-such-exp"]),
    ("und.md", "# U\n\n{{ nosuchname }}\n", ["und.md", "'nosuchname' is undefined"]),
    ("pit.md", PITFALL_NO_CAUSE, ["页面 pit.md", "应为 '原因'"]),
])
def test_errors_reach_the_author_under_quiet(tmp_path, mkdocs_env, page, text, words):
    # `make site` builds with --quiet: a failing page must still say what failed, and where.
    assert "mkdocs build --strict --quiet" in (REPO / "Makefile").read_text(encoding="utf-8")
    root = make_site(tmp_path, {"index.md": INDEX, page: text})
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "--quiet",
                        "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
                       cwd=root, capture_output=True, text=True, env=mkdocs_env)
    assert p.returncode != 0
    for w in words:
        assert w in p.stdout + p.stderr, p.stdout + p.stderr
