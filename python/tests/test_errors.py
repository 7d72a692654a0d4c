"""Errors: the located, caret-marked diagnostics of the command line, compared whole."""

from __future__ import annotations

import pickle
import re

import pytest

import sgscope


def as_string(cli_message: str) -> str:
    """The command line names inline rules `<command line>`; Python names them `<string>`."""
    return cli_message.replace("<command line>", "<string>")


def without_cli_help(cli_message: str) -> str:
    """The command line words the library's hints in its own flags, on a last `help:` line."""
    return cli_message.split("\n  help: ")[0]


@pytest.mark.parametrize(
    "rules",
    [
        "subtraktion {1, 2}",
        "octal 0.07\nmove a: x in 1..=n => n - y",
        "move a: x in 1..=n => n - x -",
        "subtraction {1, 2\nname 3",
    ],
)
def test_a_rules_text_error_is_the_cli_diagnostic(cli, rules):
    expected = as_string(cli.error("check", rules))
    with pytest.raises(sgscope.RulesError) as caught:
        sgscope.load(rules)
    assert str(caught.value) == expected
    # line and column locate the first error, as its `--> name:line:column` does.
    where = expected.split("\n")[1].rsplit(":", 2)
    assert (caught.value.line, caught.value.column) == (int(where[1]), int(where[2]))


def test_a_rules_file_error_names_its_path(cli, tmp_path):
    path = tmp_path / "bad.sg"
    path.write_text('name "bad"\nmove a: x in 1..=n => n - y\n')
    with pytest.raises(sgscope.RulesError) as caught:
        sgscope.load(str(path))
    assert str(caught.value) == cli.error("check", str(path))
    assert (caught.value.line, caught.value.column) == (2, 27)
    # A pathlib.Path is a path too, never rules text.
    with pytest.raises(sgscope.RulesError) as again:
        sgscope.load(path)
    assert str(again.value) == str(caught.value)


def test_a_parameter_that_is_not_declared(cli):
    with pytest.raises(sgscope.RulesError) as caught:
        sgscope.load("rules/nim-k.sg", kk=3)
    assert str(caught.value) == cli.error("check", "rules/nim-k.sg", "--set", "kk=3")
    assert caught.value.line == 5


def test_a_rule_error_while_computing_is_located(cli):
    rules = "move a: if n >= 1 => n + 1"
    with pytest.raises(sgscope.EngineError) as caught:
        sgscope.load(rules).table(5)
    assert str(caught.value) == as_string(cli.error("table", rules, "--to", "5"))
    assert (caught.value.line, caught.value.column) == (1, 22)


def test_a_table_past_the_memory_is_refused_before_any_work(cli):
    with pytest.raises(sgscope.BudgetError) as caught:
        sgscope.load("octal 0.07").table(10**14)
    # The command line's message, its hint worded in this package's terms; the memory
    # available is measured by each call, and other processes change it in between.
    available = lambda text: re.sub(r"only \d+(\.\d+)? [KMGT]iB", "only <memory>", text)  # noqa: E731
    assert available(str(caught.value)) == available(
        without_cli_help(cli.error("table", "octal 0.07", "--to", str(10**14)))
        + "\n  help: ask for a smaller table (`to=`, or `max=` of `period()`)"
    )
    assert "only <memory>" in available(str(caught.value))
    assert caught.value.line is None


def test_a_position_that_does_not_parse(cli):
    with pytest.raises(sgscope.PositionError) as caught:
        sgscope.load("octal 0.07").solve("3 x")
    assert str(caught.value) == cli.error("solve", "octal 0.07", "3 x")
    with pytest.raises(sgscope.PositionError, match="2 non-negative"):
        sgscope.load("rules/wythoff.sg").solve([(1, 2, 3)])


def test_an_unknown_rule_lists_the_rules():
    with pytest.raises(sgscope.UnknownRuleError) as caught:
        sgscope.load("octal 0.07").table(5, rule="nromal")
    assert str(caught.value) == (
        "unknown value rule `nromal`; the rules are: " + ", ".join(sgscope.RULES)
    )
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, sgscope.RulesError)


def test_the_period_of_a_position_game_is_refused():
    with pytest.raises(sgscope.UnsupportedError) as caught:
        sgscope.load("rules/wythoff.sg").period()
    assert str(caught.value) == (
        "`period` analyses heap games; Wythoff's game is a position game: try `patterns()` or `table()`"
    )


def test_files_that_cannot_be_read_are_os_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        sgscope.load("rules/no-such-game.sg")
    with pytest.raises(IsADirectoryError):
        sgscope.load(tmp_path)


def test_bad_arguments_are_type_and_value_errors():
    with pytest.raises(TypeError, match="integer"):
        sgscope.load("rules/nim-k.sg", k="3")
    with pytest.raises(ValueError, match="play="):
        sgscope.load("octal 0.07").period(play="misery")
    with pytest.raises(TypeError):
        sgscope.Game()


def test_errors_pickle_with_their_location():
    with pytest.raises(sgscope.RulesError) as caught:
        sgscope.load("subtraktion {1, 2}")
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is sgscope.RulesError
    assert (str(again), again.line, again.column) == (str(caught.value), 1, 1)
