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
