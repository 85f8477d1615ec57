"""book.checking.structure: the fixed H2 structures of pitfall and content pages."""
import pytest

from book.checking import structure
from book.checking.structure import PITFALL, check, sections

VERSION = '<p class="version-line">版本：burn 0.22.1</p>'
MERMAID = "```mermaid\nflowchart LR\n  a --> b\n```"


def page(titles, bodies=None):
    bodies = bodies or {}
    return "# Title\n\nintro\n\n" + "\n\n".join(
        f"## {t}\n\n{bodies.get(t, 'text')}\n" for t in titles)


def content(titles=("主线位置", "细节", "对得上", "小结"), first=None):
    first = f"where\n\n{VERSION}\n\n{MERMAID}" if first is None else first
    return page(titles, {"主线位置": first})


# --- pitfall pages ----------------------------------------------------------------------

def test_pitfall_ok():
    assert check("pitfall", page(PITFALL)) == []


def test_pitfall_missing_section():
    titles = [t for t in PITFALL if t != "原因"]
    (p,) = check("pitfall", page(titles))
    assert "第 4 个二级标题是 '改法'，应为 '原因'" in p


def test_pitfall_missing_last_section():
    (p,) = check("pitfall", page(PITFALL[:-1]))
    assert f"只有 {len(PITFALL) - 1} 个二级标题" in p and "应为 '小结'" in p


def test_pitfall_swapped_sections():
    titles = list(PITFALL)
    titles[2], titles[3] = titles[3], titles[2]
    (p,) = check("pitfall", page(titles))
    assert "第 3 个二级标题是 '原因'，应为 '现象'" in p


def test_pitfall_extra_section():
    (p,) = check("pitfall", page(PITFALL + ["附录"]))
    assert "多出了 ['附录']" in p


def test_pitfall_extra_section_in_the_middle():
    titles = PITFALL[:2] + ["插曲"] + PITFALL[2:]
    (p,) = check("pitfall", page(titles))
    assert "第 3 个二级标题是 '插曲'，应为 '现象'" in p


def test_no_kind_is_not_checked():
    assert check(None, "no headings at all") == []


def test_unknown_kind():
    (p,) = check("essay", page(PITFALL))
    assert "'essay'" in p


# --- content pages ----------------------------------------------------------------------

def test_content_ok():
    assert check("content", content()) == []


def test_content_first_section_must_be_the_map():
    problems = check("content", content(("背景", "主线位置", "对得上", "小结")))
    assert any("第一个二级标题必须是 '主线位置'" in p and "'背景'" in p for p in problems)


def test_content_without_version_line():
    (p,) = check("content", content(first=f"where\n\n{MERMAID}"))
    assert "版本行" in p


def test_content_version_line_outside_the_first_section_does_not_count():
    text = content(first=f"where\n\n{MERMAID}").replace("## 细节\n\ntext", f"## 细节\n\n{VERSION}")
    (p,) = check("content", text)
    assert "版本行" in p


def test_content_without_mermaid():
    (p,) = check("content", content(first=f"where\n\n{VERSION}\n\n```text\nnot a diagram\n```"))
    assert "mermaid" in p


def test_content_check_is_not_second_to_last():
    problems = check("content", content(("主线位置", "对得上", "细节", "小结")))
    assert any("'对得上' 和 '小结'" in p for p in problems)


def test_content_summary_must_be_last():
    problems = check("content", content(("主线位置", "细节", "小结", "对得上")))
    assert any("'对得上' 和 '小结'" in p for p in problems)


def test_content_duplicate_section():
    problems = check("content", content(("主线位置", "小结", "细节", "对得上", "小结")))
    assert any("'小结' 出现了 2 次" in p for p in problems)


# --- fences -----------------------------------------------------------------------------

@pytest.mark.parametrize("fence", ["```", "````", "~~~"])
def test_headings_inside_fences_are_ignored(fence):
    body = f"code:\n\n{fence}markdown\n## 不是标题\n{fence}\n"
    assert check("pitfall", page(PITFALL, {"现象": body})) == []


def test_shorter_backtick_run_does_not_close_a_longer_fence():
    body = "````markdown\n```\n## 不是标题\n```\n````\n"
    assert [t for t, _ in sections(page(PITFALL, {"现象": body}))] == PITFALL


def test_heading_after_a_closed_fence_counts():
    body = "```\ncode\n```\n\n## 多出来的\n"
    (p,) = check("pitfall", page(PITFALL, {"小结": body}))
    assert "多出了 ['多出来的']" in p


def test_sections_bodies():
    secs = sections("intro\n## A ##\none\n## B\ntwo")
    assert secs == [("A", "one"), ("B", "two")]


def test_appendix_headings_leave_the_search_index():
    md = "# 附录\n\n引言\n\n## 逐页\n\n```text\n## not a heading\n```\n\n### 01-tensor\n\n#### x {: #a }\n"
    out = structure.unsearchable_headings(md)
    assert "## 逐页 { data-search-exclude }" in out and "### 01-tensor { data-search-exclude }" in out
    assert "# 附录\n" in out and "## not a heading\n" in out  # the title and code stay as they are
    assert "#### x {: #a }" in out  # a heading with its own attributes is left alone
