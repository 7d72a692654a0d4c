"""Tables from Python equal the command line's `table --format csv` on every example file."""

from __future__ import annotations

import csv
import io
import warnings

import numpy as np
import pytest

import sgscope
from conftest import example_files


def bound(game: sgscope.Game) -> int:
    """A bound per coordinate keeping every example's box to a few thousand positions."""
    misere = game.play == "misere"  # every heap's sums searched: smaller tables
    if game.kind == "heap":
        return 40 if misere else 200
    return max(2, round((200 if misere else 4000) ** (1 / len(game.coordinates))) - 1)


def rows_of(table: np.ndarray, game: sgscope.Game):
    """The table as the CSV's header and rows, every cell as text."""
    if table.dtype.names is None:
        header = list(game.coordinates) + ["sg"]
        rows = [[*map(str, index), str(table[index])] for index in np.ndindex(table.shape)]
        return header, rows
    text = lambda cell: "" if cell is None else str(cell)  # noqa: E731
    return list(table.dtype.names), [[text(cell) for cell in row.tolist()] for row in table]


# Files whose moves leave a box unless its bounds fit their parameters: (parameters, bounds).
FITTED = {
    "pursuit.sg": ({"n": 3}, {"t": 1, "wr": 3, "wc": 3, "br": 3, "bc": 3}),
}


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_table_equals_the_cli_csv(cli, path):
    params, to = FITTED.get(path.name, ({}, None))
    game = sgscope.load(path, **params)
    to = to or bound(game)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sgscope.SgscopeWarning)
        table = game.table(to)
    args = ["table", str(path), "--format", "csv"]
    args += ["--to", ",".join(f"{k}={v}" for k, v in to.items()) if isinstance(to, dict) else str(to)]
    args += [f"--set={k}={v}" for k, v in params.items()]
    expected = list(csv.reader(io.StringIO(cli.ok(*args))))
    header, rows = rows_of(table, game)
    assert header == expected[0]
    assert len(rows) == len(expected) - 1
    assert rows == expected[1:]


@pytest.mark.parametrize(
    "spec, rule, to",
    [
        ("rules/kayles.sg", "misere", 40),
        ("rules/dawsons-kayles.sg", "outcomes", 60),
        ("rules/wythoff.sg", "outcomes", 12),
        ("rules/wythoff.sg", "misere", 6),
        ("rules/loopy-heap.sg", "loopy", 30),
        ("rules/subtraction-134.sg", "loopy", 30),
        ("rules/chocolate.sg", "normal", 9),
    ],
)
def test_every_rule_equals_the_cli_csv(cli, spec, rule, to):
    game = sgscope.load(spec)
    table = game.table(to, rule=rule)
    expected = list(csv.reader(io.StringIO(cli.ok("table", spec, "--to", str(to), "--rule", rule, "--format", "csv"))))
    header, rows = rows_of(table, game)
    assert [header, *rows] == expected


def test_a_position_game_is_an_nd_array_indexed_by_position():
    wythoff = sgscope.load("rules/wythoff.sg")
    table = wythoff.table((7, 5))
    assert table.shape == (8, 6) and table.dtype == np.int64
    # Wythoff's P-positions (Wythoff 1907): (⌊kφ⌋, ⌊kφ²⌋) and their mirror images.
    phi = (1 + 5 ** 0.5) / 2
    p = {(int(k * phi), int(k * phi * phi)) for k in range(6)}
    p |= {(b, a) for a, b in p}
    zeros = {tuple(int(c) for c in index) for index in zip(*np.nonzero(table == 0))}
    assert zeros == {(a, b) for a, b in p if a <= 7 and b <= 5}
    # By name, and one bound for both.
    assert (wythoff.table({"y": 5, "x": 7}) == table).all()
    assert wythoff.table(3).shape == (4, 4)


def test_a_cycling_game_warns_and_gives_its_loopy_table():
    game = sgscope.load("rules/loopy-heap.sg")
    with pytest.warns(sgscope.SgscopeWarning, match="can cycle"):
        table = game.table(10)
    assert table.dtype.names == ("n", "outcome", "remoteness", "value")
    assert set(table["outcome"]) <= {"P", "N", "D"}


def test_to_must_fit_the_game():
    with pytest.raises(ValueError, match="2 coordinate"):
        sgscope.load("rules/wythoff.sg").table((1, 2, 3))
    with pytest.raises(ValueError, match="non-negative"):
        sgscope.load("octal 0.07").table(-1)
