"""`Game.sweep`: the report of `sgscope sweep --format json`, with ranges as Python values."""

from __future__ import annotations

import json

import pytest

import sgscope


def test_bash_sweep_equals_the_command_line(cli):
    # Bash's game: period k + 1 and G(n) = n mod (k + 1) (the classical subtraction game
    # S(1, ..., k)); the report is the command line's JSON, field for field.
    report = sgscope.load("rules/bash.sg").sweep(k=range(1, 21))
    expected = json.loads(cli.ok("sweep", "rules/bash.sg", "--set", "k=1..21", "--format", "json"))
    assert report.to_dict() == expected
    formulas = {f["quantity"]: f["pieces"][0]["formula"] for f in report.formulas}
    assert formulas == {
        "period": "k + 1",
        "preperiod": "0",
        "saltus": "0",
        "p_positions": "n ≡ 0 (mod k + 1)",
        "g": "n mod (k + 1)",
    }
    assert report.partial is False


def test_ranges_as_lists_texts_and_dependent_bounds(cli):
    game = sgscope.load("rules/subtraction-ab.sg")
    report = game.sweep(a=[1, 2, 3], b="a+1..=7")
    assert report.ranges == ["a=1,2,3", "b=a+1..=7"]
    assert len(report.instances) == 6 + 5 + 4
    period = next(f for f in report.formulas if f["quantity"] == "period")
    # Benesh et al., INTEGERS 20 (2020) #G5: 2a when b is an odd multiple of a, else a + b.
    assert [(p["when"], p["formula"]) for p in period["pieces"]] == [
        ("b is an odd multiple of a", "2·a"),
        ("b is not an odd multiple of a", "a + b"),
    ]


def test_bad_ranges_raise_rules_errors():
    bash = sgscope.load("rules/bash.sg")
    with pytest.raises(sgscope.RulesError, match="`kk` is not a parameter of Bash game"):
        bash.sweep(kk=range(1, 4))
    with pytest.raises(sgscope.RulesError, match="not a parameter given before it"):
        sgscope.load("rules/abc278g.sg").sweep(R="L..=8", L=range(1, 3))
    with pytest.raises(TypeError):
        bash.sweep()
