"""One term per idea across the book: where the book has said one idea two ways, the pages and
the manifests (whose topics and notes the map shows) use the chosen one. Readers' other words
stay findable through book/site/search_synonyms.yaml."""
from pathlib import Path

from scratch import REPO

# The form not to write → the book's form. 梯度累积: keeping gradients over several backward
# calls (GradientsAccumulator); 累加 stays for adding numbers up (sums, SIMD accumulators).
TERMS = {"梯度累加": "梯度累积"}


def uses(root: Path, terms: dict) -> list[str]:
    out = []
    for f in sorted([*(root / "docs").rglob("*.md"), *(root / "experiments").rglob("*.yaml")]):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{f.relative_to(root)}:{n}：写了「{bad}」，本书用「{good}」"
                    for bad, good in terms.items() if bad in line]
    return out


def test_one_term_per_idea():
    assert uses(REPO, TERMS) == []


def test_a_second_term_is_seen(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "experiments").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# 题\n\n梯度累加的写法\n", encoding="utf-8")
    assert uses(tmp_path, TERMS) == ["docs/a.md:3：写了「梯度累加」，本书用「梯度累积」"]
