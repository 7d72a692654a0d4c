"""Generated lookup code: the snippet of `sgscope code`, its warnings as SgscopeWarning."""

from __future__ import annotations

import warnings

import pytest

import sgscope


def cli_code(cli, *args):
    done = cli.run("code", *args)
    assert done.returncode == 0, done.stderr
    cli_warnings = [
        line[len("warning: "):] for line in done.stderr.splitlines() if line.startswith("warning: ")
    ]
    return done.stdout, cli_warnings


@pytest.mark.parametrize(
    "spec, lang, kwargs, flags",
    [
        ("rules/dawsons-kayles.sg", "python", {}, []),
        ("rules/kayles.sg", "cpp", {}, []),
        ("rules/divisor-game.sg", "rust", {}, []),
        ("rules/grundys-game.sg", "java", {"max": 2000, "to": 300}, ["--max", "2000", "--to", "300"]),
        ("rules/wythoff.sg", "python", {"to": 30}, ["--to", "30"]),
        ("rules/chocolate.sg", "cpp", {"to": 12}, ["--to", "12"]),
        ("rules/wythoff.sg", "rust", {"to": 12, "table": True}, ["--to", "12", "--table"]),
        ("rules/kayles.sg", "python", {"play": "misere", "max": 60, "to": 40}, ["--misere", "--max", "60", "--to", "40"]),
    ],
)
def test_code_equals_the_cli_snippet(cli, spec, lang, kwargs, flags):
    expected, expected_warnings = cli_code(cli, spec, "--lang", lang, *flags)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        snippet = sgscope.load(spec).code(lang, **kwargs)
    assert snippet == expected
    # The command line's warnings, said as Python's (its flags in this package's words).
    words = lambda text: text.replace("--extrapolate", "extrapolate=True").replace("--table", "table=True")  # noqa: E731
    assert [str(w.message) for w in caught if w.category is sgscope.SgscopeWarning] == [
        words(w) for w in expected_warnings
    ]


def test_the_python_snippet_runs_and_agrees_with_the_period():
    # Dawson's Kayles' proved period extends G to any n: the snippet's sg(n) agrees with the
    # table and with `solve` far beyond it.
    game = sgscope.load("octal 0.07")
    scope: dict = {}
    exec(game.code("python"), scope)
    sg = scope["sg"]
    assert [sg(n) for n in range(300)] == game.table(299).tolist()
    assert sg(10**15 + 7) == game.solve(10**15 + 7).value


def test_a_language_that_does_not_exist():
    with pytest.raises(sgscope.UnsupportedError):
        sgscope.load("octal 0.07").code("cobol")
