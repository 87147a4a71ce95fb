"""The documentation stays true: the README's example runs, and docs/rules.md names every rule with
tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_example_runs() -> None:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README shows a Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_rules_doc_maps_every_rule_to_existing_tests() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    rows = {m.group(1): line for line in text.splitlines() if (m := re.match(r"\| (R\d+) \|", line))}
    assert sorted(rows, key=lambda r: int(r[1:])) == [f"R{n}" for n in range(1, 50)]
    sources = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    defined = set(re.findall(r"def (test_\w+)", sources))
    for rule, line in rows.items():
        named = set(re.findall(r"\b(test_\w+)", line)) - {n for n in re.findall(r"\b(test_\w+)\.py", line)}
        assert named, f"{rule} names no test"
        assert named <= defined, f"{rule} names missing tests: {sorted(named - defined)}"
        number = rule[1:].lower()
        assert any(f"r{number}" in name.split("_") or f"_r{number}_" in name for name in named), (
            f"{rule}: no named test carries the rule number"
        )


def test_rules_index_maps_every_rule_to_files_that_test_it() -> None:
    """``tests/rules/README.md``: a newcomer finds a rule's tests by its number."""
    text = (ROOT / "tests" / "rules" / "README.md").read_text()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| (R\d+) \| [^|]+ \| ([^|]+) \|$", text, re.M)}
    assert list(rows) == [f"R{n}" for n in range(1, 50)]
    for rule, cell in rows.items():
        files = re.findall(r"`([\w/]+\.py)`", cell)
        assert files, f"{rule} names no test file"
        for name in files:
            path = ROOT / "tests" / name
            assert path.is_file(), f"{rule}: {name} does not exist"
            tests = re.findall(r"^def (test_\w+)", path.read_text(), re.M)
            assert any(f"r{rule[1:]}" in test.split("_") for test in tests), f"{rule}: no test of {name} names it"
