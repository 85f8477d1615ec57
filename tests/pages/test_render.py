"""book.pages: the macros read hand-written entries shaped like the runner's output."""
import importlib.util
import json
import re
from pathlib import Path

import pytest

from book.running import normalize
from book.pages import blocks, plots, programs, values, versions
from book.pages import text as pagetext
from book import sources
from book.errors import BookError
from book.paths import Book
from scratch import REPO, manifest, scratch_book, write, write_crate

spec = importlib.util.spec_from_file_location("compare_for_render", REPO / "experiments" / "compare.py")
cmp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cmp)

PY = {"x": 1.0, "w": {"fc1.weight": [0.5, 0.25]}, "flag": True, "name": "a<b>&c", "n": 3}
BURN = {"x": 1.0000001, "w": {"fc1.weight": [0.5, 0.25]}, "flag": True, "name": "a<b>&c", "n": 3}
OK = {"kind": "ok"}
PROVENANCE = {
    "burn": "0.22.1", "burn_features": ["flex", "std"], "features_requested": ["flex", "std"],
    "flex_features": ["std"], "numpy": "2.4.6", "platform": "linux-x86_64",
    "profile": "release", "python": "3.11.7", "rustc": "1.95.0 (59807616e 2026-04-14)",
    "torch": "2.15.0",
    "cpu": {"arch": "x86_64", "pins": {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "COMPATIBLE"},
            "torch_capability": "AVX2"},
}
VOLATILE = {"machine": {"model": "Test CPU 9000", "simd": "AVX-512"}, "ran_at": "t"}


def entry(book, exp_id, files):
    for name, content in files.items():
        text = content if isinstance(content, str) else normalize.dump_json(content)
        write(book.outputs / exp_id / name, text)


@pytest.fixture
def book(tmp_path):
    b = scratch_book(tmp_path)
    report = cmp.compare(PY, BURN, 1e-6)
    mutated = dict(PY, x=1.001)
    entry(b, "demo", {
        "python.json": PY, "burn.json": BURN, "provenance.json": PROVENANCE, "volatile.json": VOLATILE,
        "compare.json": report, "compare.txt": cmp.format_report(report),
        "mutation.txt": cmp.format_report(cmp.compare(mutated, BURN, 1e-6)),
        "outcome.json": {
            "python": {"expected": OK, "actual": {"status": "ok", "exit_code": 0}},
            "burn": {"expected": OK, "actual": {"status": "ok", "exit_code": 0}},
            "compare": {"expected": "match", "tol": 1e-6, "why": "w", "ok": True,
                        "worst": report["worst"], "worst_field": "x", "exit_code": 0,
                        "first_error": None},
            "mutation": {"field": "x", "index": 0, "delta": 0.001, "exit_code": 1,
                         "text": "worst=1.00e-03 tol=1e-06 MISMATCH"},
        },
    })
    entry(b, "crash", {
        "python.stderr.txt": "Traceback (most recent call last):\nValueError: bad\n",
        "burn.stderr.txt": "\nthread 'main' panicked at src/main.rs:2:5:\nboom\n",
        "provenance.json": dict(PROVENANCE, features_requested=["default", "flex"],
                                cpu={"arch": "x86_64", "vendor": "GenuineIntel", "simd": "AVX-512"}),
        "outcome.json": {
            "python": {"expected": OK, "actual": {"status": "exception", "exception": "ValueError"}},
            "burn": {"expected": OK, "actual": {"status": "panic", "panic": "boom"}},
        },
    })
    entry(b, "nocompile", {
        "burn.diagnostics.txt": "error[E0382]: use of moved value: `x`\n",
        "provenance.json": PROVENANCE,
        "outcome.json": {"burn": {"expected": {"kind": "compile_error", "value": "E0382"},
                                  "actual": {"status": "compile_error", "codes": ["E0382"]}}},
    })
    return b


# --- lookups and their errors -----------------------------------------------------------

def test_unknown_experiment_names_it_and_the_known_ones(book):
    with pytest.raises(BookError) as err:
        values.value(book, "no-such-exp", "burn.x")
    assert "'no-such-exp'" in str(err.value)
    assert "crash, demo, nocompile" in str(err.value)


def test_unknown_field_lists_the_available_keys(book):
    with pytest.raises(BookError) as err:
        values.value(book, "demo", "burn.nope")
    msg = str(err.value)
    assert "'nope'" in msg
    assert "flag, n, name, w, x" in msg


def test_unknown_nested_field_lists_keys_at_that_level(book):
    with pytest.raises(BookError) as err:
        values.value(book, "demo", "python.w.fc2.weight")
    assert "python.w" in str(err.value) and "fc1.weight" in str(err.value)


def test_unknown_source_file_lists_the_heads(book):
    with pytest.raises(BookError, match="compare") as err:
        values.value(book, "demo", "stdout.x")
    assert "provenance" in str(err.value)


def test_missing_output_file_is_named(book):
    with pytest.raises(BookError, match="burn.json"):
        values.value(book, "crash", "burn.x")


def test_list_index_out_of_range(book):
    with pytest.raises(BookError, match="'7'"):
        values.value(book, "demo", "python.w.fc1.weight.7")


# --- value, claim, num ------------------------------------------------------------------

def test_value_renders_each_type(book):
    assert values.value(book, "demo", "burn.x") == "1.0000001"
    assert values.value(book, "demo", "python.w.fc1.weight.1") == "0.25"  # key with a dot, then an index
    assert values.value(book, "demo", "python.w.fc1.weight") == "<code>0.5, 0.25</code>"
    assert values.value(book, "demo", "python.flag") == "<code>true</code>"
    assert values.value(book, "demo", "python.n") == "3"
    assert values.value(book, "demo", "python.name") == "a&#60;b&#62;&#38;c"
    assert values.value(book, "demo", "burn.x", ".2e") == "1.00e+00"
    assert values.value(book, "demo", "outcome.mutation.exit_code") == "1"


def test_value_of_a_mapping_or_bad_format(book):
    with pytest.raises(BookError, match="python.w"):
        values.value(book, "demo", "python.w")
    with pytest.raises(BookError, match="'.2e'"):
        values.value(book, "demo", "python.name", ".2e")


def test_claim_holds(book):
    assert values.claim(book, "demo", "python.flag", True) == "<code>true</code>"
    assert values.claim(book, "demo", "python.n", 3) == "3"


def test_claim_raises_when_value_differs(book):
    with pytest.raises(BookError) as err:
        values.claim(book, "demo", "python.flag", False)
    assert "demo" in str(err.value) and "python.flag" in str(err.value)
    assert "False" in str(err.value) and "True" in str(err.value)
    with pytest.raises(BookError, match="4"):
        values.claim(book, "demo", "python.n", 4)


def test_num(book):
    assert values.num(book, "demo", "burn.x") == 1.0000001
    for path in ("python.flag", "python.name"):
        with pytest.raises(BookError, match="不是数"):
            values.num(book, "demo", path)


# --- fences and code --------------------------------------------------------------------

def test_fence_plain():
    assert pagetext.fence("a\nb") == "```text\na\nb\n```"
    assert pagetext.fence("a\n", "json") == "```json\na\n```"


@pytest.mark.parametrize("text, ticks", [("x ``` y\n", 4), ("```\n````\n", 5), ("`````", 6)])
def test_fence_outlasts_backticks_in_the_text(text, ticks):
    out = pagetext.fence(text)
    body = text if text.endswith("\n") else text + "\n"
    assert out == "`" * ticks + "text\n" + body + "`" * ticks


SOURCE = """fn main() {
    // region: body
    let a = 1;
        let b = 2;

    // endregion: body
    // region: other
    let c = 3;
    // endregion: other
}
"""


def test_extract_region_dedents_and_drops_markers(tmp_path):
    b = scratch_book(tmp_path)
    p = write(tmp_path / "main.rs", SOURCE)
    assert programs.extract(p, "body", b) == "let a = 1;\n    let b = 2;\n"
    whole = programs.extract(p, None, b)
    assert "region" not in whole
    assert whole.startswith("fn main() {\n    let a = 1;") and whole.endswith("}\n")


def test_extract_python_region(tmp_path):
    p = write(tmp_path / "s.py", "import x\n# region: r\nif x:\n    y()\n# endregion: r\n")
    assert programs.extract(p, "r", scratch_book(tmp_path)) == "if x:\n    y()\n"


@pytest.mark.parametrize("text, region", [
    (SOURCE, "absent"),                                            # no such region
    (SOURCE.replace("    // endregion: body\n", ""), "body"),       # never closed
    ("// endregion: body\nx\n// region: body\n", "body"),        # closed before opened
    ("// region: body\n// region: body\nx\n// endregion: body\n", "body"),  # opened twice
])
def test_extract_missing_or_unpaired_region(tmp_path, text, region):
    p = write(tmp_path / "main.rs", text)
    with pytest.raises(BookError) as err:
        programs.extract(p, region, scratch_book(tmp_path))
    assert "main.rs" in str(err.value) and f"'{region}'" in str(err.value)


def test_extract_joins_segments_of_one_region(tmp_path):
    text = SOURCE + "    // region: body\n    let d = 4;\n    // endregion: body\n"
    p = write(tmp_path / "main.rs", text)
    assert programs.extract(p, "body", scratch_book(tmp_path)) == "let a = 1;\n    let b = 2;\n\nlet d = 4;\n"


def test_extract_missing_file(tmp_path):
    with pytest.raises(BookError, match="nope.rs"):
        programs.extract(tmp_path / "nope.rs", None, scratch_book(tmp_path))


def test_code_picks_language(tmp_path):
    b = scratch_book(tmp_path)
    write(tmp_path / "crates" / "c" / "src" / "main.rs", SOURCE)
    assert programs.code(b, "crates/c/src/main.rs", "other") == "```rust\nlet c = 3;\n```"


def test_pair_shows_both_programs_in_linked_tabs(tmp_path):
    b = scratch_book(tmp_path)
    write(b.experiments / "p.py", "# region: r\nprint(1)\n# endregion: r\n")
    write_crate(tmp_path, "c", SOURCE.replace("body", "r"))
    manifest(tmp_path, "pp", "python:\n  script: p.py\nburn:\n  crate: c\n")
    out = programs.pair(b, "pp", "r")
    assert out == ('===! "PyTorch"\n\n    ```python\n    print(1)\n    ```\n\n'
                   '=== "burn"\n\n    ```rust\n    let a = 1;\n        let b = 2;\n    ```\n')
    with pytest.raises(BookError, match="'nope'"):
        programs.pair(b, "nope")


def test_pair_takes_the_burn_side_from_a_crate_the_experiment_needs(tmp_path):
    b = scratch_book(tmp_path)
    write(b.experiments / "p.py", "# region: r\nprint(1)\n# endregion: r\n")
    write_crate(tmp_path, "c", "fn main() {}\n")
    write_crate(tmp_path, "gen", "// region: r\nlet g = 1;\n// endregion: r\n")
    write_crate(tmp_path, "other", "// region: r\nlet o = 1;\n// endregion: r\n")
    manifest(tmp_path, "pp", "python:\n  script: p.py\nburn:\n  crate: c\nneeds: [gen]\n")
    out = programs.pair(b, "pp", "r", "crates/gen/src/main.rs")
    assert "print(1)" in out and "let g = 1;" in out
    # A file of a crate the experiment does not run is refused, with the crates it may use.
    with pytest.raises(BookError, match=r"needs.*\['gen'\]"):
        programs.pair(b, "pp", "r", "crates/other/src/main.rs")


# --- rendered outputs -------------------------------------------------------------------

def test_compact_json_packs_numbers_and_keeps_the_rest():
    data = {"b": {"v": list(range(40)), "s": ["a<b>", "c"]}, "a": 1.5, "e": [], "n": None}
    text = pagetext.compact_json(normalize.dump_json(data))
    assert json.loads(text) == data  # the same data, only laid out differently
    lines = text.splitlines()
    assert max(len(ln) for ln in lines) <= pagetext.WRAP
    assert sum(1 for ln in lines if ln.strip()[:1].isdigit()) == 3  # 40 numbers on 3 lines, not 40
    assert '   "a<b>",' in lines  # strings keep one per line, as stored
    assert pagetext.compact_json("not json {") == "not json {"


def test_side_output_of_each_status(book):
    assert blocks.side_output(book, "demo", "python") == "```json\n" + pagetext.compact_json(
        normalize.dump_json(PY)) + "```"
    assert blocks.side_output(book, "crash", "burn") == (
        "```text\n\nthread 'main' panicked at src/main.rs:2:5:\nboom\n```")
    assert blocks.side_output(book, "crash", "python").endswith("ValueError: bad\n```")
    assert blocks.side_output(book, "nocompile", "burn") == (
        "```text\nerror[E0382]: use of moved value: `x`\n```")
    with pytest.raises(BookError, match="python"):
        blocks.side_output(book, "nocompile", "python")


def test_outputs_tabs(book):
    out = blocks.outputs_tabs(book, "demo")
    assert out.startswith('===! "PyTorch"\n\n    ```json\n    {\n')
    assert '\n=== "burn"\n\n    ```json\n' in out
    # The JSON's own one-space indent survives under the tab's four.
    assert '\n     "x": 1.0000001\n    }\n' in out
    assert out.endswith("    ```\n")


def test_compare_output(book):
    out = blocks.compare_output(book, "demo")
    assert out.startswith("```text\nflag")
    assert out.endswith("OK\n$ echo $?\n0\n```")
    mut = blocks.compare_output(book, "demo", mutated=True)
    assert mut.endswith("MISMATCH\n$ echo $?\n1\n```")
    with pytest.raises(BookError, match="crash"):
        blocks.compare_output(book, "crash")


def test_compare_table(book):
    out = blocks.compare_table(book, "demo")
    assert "| `w.fc1.weight` | 2 | 0.00e+00 | 0 |" in out
    assert "| `x` | 1 | 1.00e-07 | 1 |" in out
    assert "**1.00e-07**（`x`）" in out
    assert out.endswith("容差 1e-06，结论 **OK**。\n")


def test_version_line(book):
    line = versions.version_line(book, "demo", "crash")
    assert line.startswith('<p class="version-line">版本：PyTorch 2.15.0（CPU）')
    assert "burn 0.22.1（Device::flex()，release；features [flex, std] 或 [default, flex]）" in line
    assert "rustc 1.95.0 · Python 3.11.7 · linux-x86_64 · CPU Test CPU 9000（" in line
    # One entry has cpu: fields (its SIMD level), the other runs PyTorch pinned.
    assert "SIMD AVX-512，有的数随 CPU 而变" in line
    assert "PyTorch 的 CPU 内核固定在 AVX2（MKL_CBWR=COMPATIBLE）" in line
    with pytest.raises(BookError):
        versions.version_line(book)


# --- links into burn's source (the real Book: cargo's copy of burn 0.22.1) ---------------

LINK_RE = re.compile(r"^\[`(?P<label>[^`]+)`\]\((?P<url>\S+) \"(?P<title>[^\"]+)\"\)$")


def registry_file(crate_path: str) -> Path:
    crate, _, rel = crate_path.partition("/")
    return sources.crate_dir(crate, "0.22.1") / rel


def test_src_links_to_the_function_at_the_tag():
    out = versions.src(Book(), "burn-flex/src/ops/reduce.rs", "sum_f32_contiguous")
    m = LINK_RE.match(out)
    assert m, out
    assert m["label"] == "sum_f32_contiguous"
    u = re.fullmatch(r"https://github\.com/tracel-ai/burn/blob/v0\.22\.1/crates/burn-flex/"
                     r"src/ops/reduce\.rs#L(\d+)-L(\d+)", m["url"])
    assert u, m["url"]
    a, b = int(u[1]), int(u[2])
    lines = registry_file("burn-flex/src/ops/reduce.rs").read_text(encoding="utf-8").split("\n")
    span = lines[a - 1:b]
    assert any("fn sum_f32_contiguous" in ln for ln in span)
    assert span[-1] == "}"  # the whole body, up to its closing brace
    assert span[0].startswith("///")  # with its doc comment
    assert m["title"] == f"crates/burn-flex/src/ops/reduce.rs L{a}–L{b}"


def test_src_toml_key_and_custom_text():
    out = versions.src(Book(), "burn-flex/Cargo.toml", "features.default", text="Flex defaults")
    m = LINK_RE.match(out)
    assert m and m["label"] == "Flex defaults"
    a, b = map(int, re.search(r"#L(\d+)-L(\d+)$", m["url"]).groups())
    orig = registry_file("burn-flex/Cargo.toml.orig").read_text(encoding="utf-8").split("\n")
    assert orig[a - 1].lstrip().startswith("default")
    assert "[features]" in orig[:a]


@pytest.mark.parametrize("path, symbol, word", [
    ("burn-flex/src/ops/no_such_file.rs", "f", "no_such_file.rs"),
    ("burn-flex/src/ops/reduce.rs", "no_such_symbol", "'no_such_symbol'"),
    ("no-such-crate/src/lib.rs", "f", "no-such-crate"),
    ("reduce.rs", "f", "<crate>/<文件>"),
])
def test_src_missing_file_or_symbol(path, symbol, word):
    with pytest.raises(BookError) as err:
        versions.src(Book(), path, symbol)
    assert word in str(err.value)


# --- line_plot ----------------------------------------------------------------------------

def test_line_plot_draws_each_series_from_the_outputs(book):
    svg = plots.line_plot(book, "t <1>", [["a<b>", "demo", "python.w.fc1.weight"],
                                           ["burn", "demo", "burn.w.fc1.weight"]], "x", "y")
    assert svg.count("<polyline") == 2
    assert "t &lt;1&gt;" in svg and "a&lt;b&gt;" in svg and "<b>" not in svg
    assert "\n\n" not in svg.strip("\n")  # one raw HTML block, nothing for Markdown to split


def test_line_plot_reads_a_mapping_in_key_order(book):
    entry(book, "curve", {"outcome.json": {}, "python.json": {"loss": {"step02": 2.0, "step01": 1.0,
                                                                      "step03": 0.0}}})
    svg = plots.line_plot(book, "t", [["p", "curve", "python.loss"]])
    pts = svg.split('points="')[1].split('"')[0].split()
    ys = [float(p.split(",")[1]) for p in pts]
    # Key order gives 1.0, 2.0, 0.0; SVG y grows downwards: middle, top, bottom.
    assert ys[1] < ys[0] < ys[2]


def test_line_plot_reads_nested_mappings_one_after_the_other(book):
    entry(book, "epochs", {"outcome.json": {}, "python.json": {"loss": {
        "epoch2": {"step03": 0.0}, "epoch1": {"step02": 2.0, "step01": 1.0}}}})
    svg = plots.line_plot(book, "t", [["p", "epochs", "python.loss"]])
    pts = svg.split('points="')[1].split('"')[0].split()
    ys = [float(p.split(",")[1]) for p in pts]
    assert len(ys) == 3 and ys[1] < ys[0] < ys[2]  # epoch1's steps in order, then epoch2's


def test_max_diff_takes_a_field_and_everything_under_it(book):
    entry(book, "md", {"outcome.json": {}, "compare.json": {"fields": [
        {"field": "loss.epoch1.step01", "max_diff": 1e-7}, {"field": "loss.epoch2.step21", "max_diff": 3e-6},
        {"field": "loss_final", "max_diff": 9.0}, {"field": "name", "kind": "str", "max_diff": None}]}})
    assert values.max_diff(book, "md", "loss") == 3e-6  # not loss_final
    assert values.max_diff(book, "md", "loss.epoch1") == 1e-7
    assert values.max_diff(book, "md", "loss_final") == 9.0
    with pytest.raises(BookError, match="'nope'"):
        values.max_diff(book, "md", "nope")


def test_abs_diffs_pairs_two_lists_element_by_element(book):
    entry(book, "ad", {"outcome.json": {}, "python.json": {"y": [1.0, 2.0, 3.0], "short": [1.0],
                                                             "words": ["a", "b", "c"]},
                       "burn.json": {"y": [1.5, 2.0, 2.0]}})
    assert values.abs_diffs(book, "ad", "burn.y", "python.y") == [0.5, 0.0, 1.0]
    for other in ("python.short", "python.words"):
        with pytest.raises(BookError, match="一样长的数"):
            values.abs_diffs(book, "ad", "burn.y", other)


def test_line_plot_rejects_what_is_not_a_list_of_numbers(book):
    with pytest.raises(BookError, match="一列数"):
        plots.line_plot(book, "t", [["p", "demo", "python.name"]])
    with pytest.raises(BookError, match="标签"):
        plots.line_plot(book, "t", [["only two", "demo"]])


def test_src_literal_with_a_path_inside():
    # A literal containing "::" is still a literal, not Type::method.
    link = versions.src(Book(), "burn-tensor/src/tensor/api/numeric.rs",
                      "core::ops::Sub<Self> for Tensor<D, K>", "Sub")
    assert "crates/burn-tensor/src/tensor/api/numeric.rs#L" in link


def test_require_stops_the_build_with_the_sentence(book):
    assert values.require(book, True, "a < b") == ""
    with pytest.raises(BookError, match="a < b"):
        values.require(book, False, "a < b")


@pytest.mark.parametrize("lo, hi, want", [
    (0.03834, 71.77, [0, 20, 40, 60, 80]),
    (0.5, 0.52, [0.5, 0.51, 0.52]),
    (1e-5, 3e-5, [1e-5, 1.5e-5, 2e-5, 2.5e-5, 3e-5]),
    (-3, 2.5, [-4, -2, 0, 2, 4]),
])
def test_plot_ticks_are_round_and_cover_the_data(lo, hi, want):
    assert plots.nice_ticks(lo, hi) == want


def test_plot_legend_sits_below_the_axes(book):
    svg = plots.line_plot(book, "t", [["a", "demo", "python.w.fc1.weight"],
                                       ["b", "demo", "burn.w.fc1.weight"],
                                       ["c", "demo", "burn.w.fc1.weight"]], "x", "y")
    axis_y = float(re.search(r'<line x1="\d+" y1="([\d.]+)" x2', svg).group(1))
    legend_ys = [float(y) for y in re.findall(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" stroke="#', svg)]
    assert len(legend_ys) == 3 and min(legend_ys) > axis_y + 30
    assert min(int(f) for f in re.findall(r'font-size="(\d+)"', svg)) >= 13
