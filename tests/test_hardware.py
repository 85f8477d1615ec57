"""book/hardware.py's machine facts (target/.book-machine/): a truncated, garbage or foreign
file is learnt again and rewritten, never trusted and never a traceback."""
import json

import pytest

from book import hardware
from book.paths import ROOT


def fact_file(name: str, key):
    hardware.remembered(name, key, lambda: {"answer": 42})
    (path,) = sorted((ROOT / "target" / ".book-machine").glob(f"{name}-*.json"))
    return path


@pytest.mark.parametrize("damage", ["", '{"key": [1], "val', "[1, 2]", '{"value": "forged"}',
                                    '{"key": ["another", 1], "value": "forged"}'])
def test_a_damaged_fact_is_learnt_again(damage):
    name, key = "test-damage", ["test", 1]
    path = fact_file(name, key)
    try:
        path.write_text(damage, encoding="utf-8")
        asked = []
        got = hardware.remembered(name, key, lambda: asked.append(1) or {"answer": 42})
        assert got == {"answer": 42} and asked == [1]
        assert json.loads(path.read_text(encoding="utf-8")) == {"key": key, "value": {"answer": 42}}
        # And now it is remembered: not asked again.
        assert hardware.remembered(name, key, lambda: asked.append(2)) == {"answer": 42} and asked == [1]
    finally:
        path.unlink(missing_ok=True)
