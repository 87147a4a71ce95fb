"""R1-R49: every option is declared once (``rules.OPTIONS``, beside its ``RuleSet`` field) and every
text and form is made from that declaration: the rules text, ``liverpool rules --options``, the
``--set`` errors, the server's option form and the option columns of ``docs/rules.md``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from liverpool.rules import OPTIONS, PRESETS, VARIANT_OPTIONS, RuleSet, option_cell, option_fields, options_json

ROOT = Path(__file__).resolve().parents[2]


def test_r1_r49_every_field_is_declared_with_rules_help_and_defaults() -> None:
    assert list(OPTIONS) == [f.name for f in dataclasses.fields(RuleSet)]
    for name, option in OPTIONS.items():
        assert option.rules and all(re.fullmatch(r"R([1-9]|[1-4]\d)", n) for n in option.rules), name
        assert option.help.endswith(".") and not option.help.startswith("R"), name
        assert option.defaults() == {p: getattr(rules, name) for p, rules in PRESETS.items()}
        assert option.default == getattr(RuleSet(), name)
        assert option.allowed()


def test_r1_r49_the_docs_option_columns_are_made_from_the_declarations() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    rows = {m.group(1): line.split(" | ")[2] for line in text.splitlines() if (m := re.match(r"\| (R\d+) \|", line))}
    assert len(rows) == 49
    wrong = {rule: (cell, option_cell(rule)) for rule, cell in rows.items() if cell != option_cell(rule)}
    assert wrong == {}, "rewrite the option columns of docs/rules.md from rules.option_cell"
    for name, option in OPTIONS.items():  # each option has the row of its main rule
        assert f"`{name}` = " in rows[option.rules[0]], name


def test_r2_r12_r30_the_limits_refused_name_the_option_and_what_it_allows() -> None:
    with pytest.raises(ValueError, match="run_min must be at least 2, got 1"):
        RuleSet().with_options(run_min="1")
    with pytest.raises(ValueError, match="max_players must be a whole number from 2 to"):
        RuleSet().with_options(max_players="99")
    with pytest.raises(ValueError, match="buy_window must be one of until_draw, until_discard, got 'soon'"):
        RuleSet().with_options(buy_window="soon")
    with pytest.raises(ValueError, match="option buy_limit: cannot read 'lots': a whole number of at least 0"):
        RuleSet().with_options(buy_limit="lots")
    with pytest.raises(ValueError, match="floating must be one of true, false, refuse"):
        dataclasses.replace(RuleSet(), floating=1)  # type: ignore[arg-type]
    assert RuleSet().with_options(floating="refuse").floating == "refuse"
    assert RuleSet().with_options(floating="no").floating is False
    assert RuleSet().with_options(ace="none").ace is None and RuleSet().with_options(ace="both").ace == "both"


def test_r30_the_rules_text_takes_each_options_own_sentence() -> None:
    text = dict(RuleSet().with_options(buy_window="until_discard").describe())
    say = OPTIONS["buy_window"].say
    assert say is not None and text["R30"] == say("until_discard")
    assert [n for n, _ in RuleSet().describe()] == [f"R{i}" for i in range(1, 50)]


def test_r49_variants_are_the_options_declared_as_variants() -> None:
    assert set(RuleSet().to_dict()) == set(OPTIONS) - VARIANT_OPTIONS  # records read as before the variants
    assert {"buy_window", "progression", "ace", "swap_own_run"} <= VARIANT_OPTIONS
    assert "buy_window" not in RuleSet().to_dict() and "buy_window" in PRESETS["may_i"].to_dict()


def test_r12_the_form_and_the_json_come_from_the_declarations() -> None:
    fields = {f["name"]: f for f in option_fields("contract")}
    assert fields["run_min"] == {
        "name": "run_min",
        "value": 3,
        "type": "int",
        "choices": None,
        "rule": "R12",
        "help": "fewest cards in a run.",
    }
    assert fields["turn_limit"]["help"].startswith("turns after which")  # (its help was lost to the lobby's parse)
    data = options_json()
    assert data["presets"] == list(PRESETS)
    window = next(o for o in data["options"] if o["name"] == "buy_window")
    assert window["defaults"]["may_i"] == "until_discard" and window["choices"] == ["until_draw", "until_discard"]
    schedule = next(o for o in data["options"] if o["name"] == "schedule")
    assert schedule["defaults"]["liverpool"].startswith("2S/10,")


def test_r12_cli_rules_options_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    from liverpool.cli import main

    assert main(["rules", "--preset", "contract", "--options"]) == 0
    out = capsys.readouterr().out
    assert "run_min = 3  (R12) fewest cards in a run." in out
    assert all(f"\n{name} = " in "\n" + out for name in OPTIONS)
