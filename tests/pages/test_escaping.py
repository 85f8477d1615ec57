"""Real `mkdocs build --strict` runs of a scratch site: escaping, structure and macro errors."""
import html
import os
import re
import subprocess

import pytest

from scratch import ESC_WHY, REPO, VENV_PY, esc_site, mkdocs_build

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


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = esc_site(tmp_path_factory.mktemp("esc"), {"index.md": INDEX})
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
    assert html.unescape(why) == ESC_WHY


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
    root = esc_site(tmp_path, {"index.md": INDEX, page: text})
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
    root = esc_site(tmp_path, {"index.md": INDEX, page: text})
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "--quiet",
                        "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
                       cwd=root, capture_output=True, text=True, env=mkdocs_env)
    assert p.returncode != 0
    for w in words:
        assert w in p.stdout + p.stderr, p.stdout + p.stderr
