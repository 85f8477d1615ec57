"""One answer per call: no two rows of the map give different verdicts for the same spelling
and the same PyTorch code (book/pages/scan_rules.verdict_conflicts), and the check sees it when
they do."""
import copy

from book.pages import scan_rules
from book.paths import Book
from scratch import REPO


def test_no_two_rows_give_a_call_two_answers():
    assert scan_rules.verdict_conflicts(scan_rules.build(Book(REPO))) == []


def test_a_second_answer_for_the_same_call_is_found():
    rules = scan_rules.build(Book(REPO))
    i = next(i for i, r in enumerate(rules["rows"]) if r["a"] == "linalg-normalize")
    twin = dict(copy.deepcopy(rules["rows"][i]), a="ops-normalize_twin", v="none", f=None)
    rules["rows"].append(twin)
    rules["spell"]["F.normalize"].append([len(rules["rows"]) - 1, {}])
    found = scan_rules.verdict_conflicts(rules)
    assert len(found) == 1 and "F.normalize" in found[0] and "ops-normalize_twin 说 none" in found[0], found
