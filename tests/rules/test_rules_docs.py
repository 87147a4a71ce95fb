"""docs/rules.md stays true: a rule row whose notes say "Open" (a known gap) must have an xfail
test naming that rule number, so that a gap is either fixed or pinned by a failing test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\|\s*(R\d+)\s*\|")
XFAIL_TEST = re.compile(r"@pytest\.mark\.xfail\b[^\n]*\n(?:\s*@[^\n]*\n)*\s*def (test_\w+)")


def open_rows(text: str) -> list[str]:
    """The rule numbers (``R26``) of the table rows whose text says "Open"."""
    out = []
    for line in text.splitlines():
        match = ROW.match(line)
        if match and re.search(r"\bOpen\b", line):
            out.append(match.group(1))
    return out


def xfail_rules(sources: list[str]) -> set[str]:
    """The rule numbers named by xfail-marked tests (``test_r26_...``, ``test_r20_r19_...``)."""
    found: set[str] = set()
    for source in sources:
        for name in XFAIL_TEST.findall(source):
            found.update(f"R{int(n)}" for n in re.findall(r"_r(\d+)(?=_)", name + "_"))
    return found


def unpinned(doc: str, sources: list[str]) -> list[str]:
    """Rows that say "Open" without an xfail test naming their rule."""
    pinned = xfail_rules(sources)
    return [rule for rule in open_rows(doc) if rule not in pinned]


def test_every_open_rule_row_has_an_xfail_test() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    sources = [p.read_text() for p in sorted((ROOT / "tests").rglob("*.py"))]
    assert unpinned(doc, sources) == []


def test_the_open_check_catches_a_row_without_its_xfail_test() -> None:
    doc = "| R7 | upcard | x | y | z | Open: not done |\n| R8 | first | x | y | z | done |\n"
    assert open_rows(doc) == ["R7"]
    assert unpinned(doc, []) == ["R7"]
    assert unpinned(doc, ["@pytest.mark.xfail(reason='x')\ndef test_r8_other() -> None: ..."]) == ["R7"]
    pinned = "@pytest.mark.xfail(strict=True)\n@pytest.mark.parametrize('a', [1])\ndef test_r7_upcard(a): ..."
    assert unpinned(doc, [pinned]) == []
    assert unpinned(doc, ["def test_r7_upcard() -> None: ..."]) == ["R7"]  # not marked xfail
