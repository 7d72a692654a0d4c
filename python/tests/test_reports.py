"""Period and solve reports: the fields and names of `period --json` and `solve --json`."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

import sgscope

TIMING = ("seconds", "values_per_second")


def without_timing(fields: dict) -> dict:
    return {k: v for k, v in fields.items() if k not in TIMING}


def test_dawsons_kayles_has_period_34():
    # Dawson's Kayles, octal 0.07: period 34 (Guy and Smith 1956), proved by the theorem.
    report = sgscope.load("octal 0.07").period()
    assert (report.period, report.saltus, report.proved) == (34, 0, True)


@pytest.mark.parametrize(
    "spec",
    [
        "rules/dawsons-kayles.sg",
        "rules/kayles.sg",
        "rules/strip-game.sg",
        "rules/subtraction-134.sg",
        "rules/treblecross.sg",
        "rules/lasker-nim.sg",
        "octal 0.137",
    ],
)
def test_period_report_equals_period_json(cli, spec):
    report = sgscope.load(spec).period()
    expected = cli.json("period", spec)
    assert report.keys() == list(expected)
    assert without_timing(report.to_dict()) == without_timing(expected)
    assert all(isinstance(report.to_dict()[k], (int, float)) for k in TIMING)


def test_a_smaller_max_and_misere_play_equal_the_cli(cli):
    report = sgscope.load("octal 0.07").period(max=100)
    expected = cli.json("period", "octal 0.07", "--max", "100")
    assert without_timing(report.to_dict()) == without_timing(expected)
    assert report.proved is False
    misere = sgscope.load("rules/kayles.sg").period(max=40, play="misere")
    assert misere.to_dict() == cli.json("period", "rules/kayles.sg", "--max", "40", "--misere")
    assert misere.play == "misere"


@pytest.mark.parametrize(
    "spec, position, text, play",
    [
        ("octal 0.07", [5, 9, 12], "5 9 12", "normal"),
        ("rules/kayles.sg", [3, 4, 7, 20], "3 4 7 20", "normal"),
        ("rules/kayles.sg", [3, 4, 7], "3 4 7", "misere"),
        ("rules/wythoff.sg", [(3, 5), (2, 2)], "(3, 5) + (2, 2)", "normal"),
        ("rules/chocolate.sg", [(4, 6)], "(4, 6)", "normal"),
        ("rules/loopy-heap.sg", [4, 6], "4 6", "normal"),
        ("rules/graph-cycle.sg", None, "", "normal"),
        ("rules/tree-edge-deletion.sg", None, "", "normal"),
        ("octal 0.07", [10**12, 7], f"{10**12} 7", "normal"),
    ],
)
def test_solve_report_equals_solve_json(cli, spec, position, text, play):
    game = sgscope.load(spec)
    args = ["solve", spec, *([text] if text else []), "--json"]
    if play == "misere":
        args.append("--misere")
    expected = json.loads(cli.ok(*args))
    report = game.solve(position, play=play)
    assert report.to_dict() == expected
    # The command line's text of the position gives the same report.
    if text:
        assert game.solve(text, play=play) == report


def test_solve_agrees_with_the_nim_sum_of_the_table():
    # Sprague–Grundy: a sum is a P-position exactly when the XOR of its values is 0.
    game = sgscope.load("rules/grundys-game.sg")
    g = game.table(40)
    rng = np.random.default_rng(7)
    for _ in range(20):
        heaps = [int(h) for h in rng.integers(0, 41, size=3)]
        report = game.solve(heaps)
        value = int(np.bitwise_xor.reduce(g[heaps]))
        assert report.value == value
        assert report.outcome == ("P" if value == 0 else "N")
        # Every winning move leaves a sum of value 0.
        for move in report.winning_moves:
            after = list(heaps)
            del after[move["component"] - 1]
            after += move["result"]
            assert int(np.bitwise_xor.reduce(g[after])) == 0


def test_reports_pickle_and_read_only():
    report = sgscope.load("octal 0.07").period()
    again = pickle.loads(pickle.dumps(report))
    assert again == report and isinstance(again, sgscope.PeriodReport)
    assert "period=34" in repr(report)
    with pytest.raises(AttributeError):
        report.period = 3
    with pytest.raises(AttributeError, match="no field"):
        report.nonexistent


def test_games_pickle_as_their_rules():
    game = sgscope.load("rules/nim-k.sg", k=3)
    again = pickle.loads(pickle.dumps(game))
    assert again.params == {"k": 3} and again.name == game.name
    assert (again.table(3) == game.table(3)).all()


@pytest.mark.parametrize(
    "spec, to, play",
    [
        ("rules/nim.sg", 200, "normal"),
        ("rules/divisor-game.sg", 300, "normal"),
        ("rules/kayles.sg", 300, "normal"),
        ("rules/wythoff.sg", 40, "normal"),
        ("rules/chocolate.sg", 16, "normal"),
        ("rules/staircase-nim.sg", 4, "normal"),
        ("rules/kayles.sg", 30, "misere"),
        ("rules/wythoff.sg", 8, "misere"),
    ],
)
def test_patterns_report_equals_patterns_json(cli, spec, to, play):
    report = sgscope.load(spec).patterns(to, play=play)
    args = ["patterns", spec, "--to", str(to), "--json"] + (["--misere"] if play == "misere" else [])
    assert report.to_dict() == json.loads(cli.ok(*args))


def test_patterns_find_the_known_closed_forms():
    # Nim: G(n) = n (Bouton 1901); the divisor game: G(n) = v_2(n) (OEIS A007814).
    assert sgscope.load("rules/nim.sg").patterns(200).formula["formula"]["kind"] == "identity"
    divisor = sgscope.load("rules/divisor-game.sg").patterns(300).formula["formula"]
    assert (divisor["kind"], divisor["prime"]) == ("valuation", 2)
