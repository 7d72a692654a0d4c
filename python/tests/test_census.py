"""Censuses: the rows of `census … --format jsonl`, as a list of dicts."""

from __future__ import annotations

import json

import pytest

import sgscope


def without_seconds(rows):
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.mark.parametrize(
    "family, bound, args",
    [
        ("octal", {"digits": 1, "max": 1024, "sparse_max": 4096}, ["--digits", "1", "--max", "1024", "--sparse-max", "4096"]),
        ("subtraction", {"max_element": 5}, ["--max-element", "5"]),
    ],
)
def test_census_rows_equal_the_cli_jsonl(cli, family, bound, args):
    rows = sgscope.census(family, **bound)
    expected = [json.loads(line) for line in cli.ok("census", family, *args, "--format", "jsonl").splitlines()]
    assert without_seconds(rows) == without_seconds(expected)
    assert all(isinstance(row["seconds"], float) for row in rows)


def test_census_knows_nim_and_subtraction_periods():
    rows = {row["code"]: row for row in sgscope.census("subtraction", max_element=4)}
    # Subtraction {1, 3, 4}: period 7 (Ferguson, Game Theory I §1.4); {1, 2, 3}: n mod 4.
    assert rows["{1, 3, 4}"]["period"] == 7 and rows["{1, 3, 4}"]["proved"]
    assert rows["{1, 2, 3}"]["period"] == 4


def test_census_arguments_are_checked():
    with pytest.raises(sgscope.UnsupportedError, match="families are"):
        sgscope.census("hexadecimal", digits=1)
    with pytest.raises(TypeError, match="digits="):
        sgscope.census("octal", max_element=3)
    with pytest.raises(sgscope.UnsupportedError, match="too small"):
        sgscope.census("octal", digits=1, max=10)
