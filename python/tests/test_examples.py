"""The walkthrough script and the docstrings' examples run as written."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys

import sgscope
from conftest import ROOT


def test_the_walkthrough_runs(tmp_path):
    done = subprocess.run(
        [sys.executable, "examples/python/walkthrough.py", "--plot", str(tmp_path / "g.png")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "preperiod 53, period 34, proved: True" in done.stdout
    # Its G(10^18), from the period, is the one `solve` finds for that heap.
    line = next(l for l in done.stdout.splitlines() if l.startswith("G(10^18) = "))
    assert int(line.split("= ")[1]) == sgscope.load("octal 0.07").solve(10**18).value


def test_the_docstring_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testmod(
        sgscope, extraglobs={"sgscope": sgscope}, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 0 and failures == 0


def test_help_reads_well():
    text = sgscope.load.__doc__
    assert text and "Load a game" in text and "RulesError" in text
    for method in ("table", "period", "solve"):
        assert getattr(sgscope.Game, method).__doc__
