"""The exceptions sgscope raises (all importable from ``sgscope``)."""

from __future__ import annotations

from typing import Optional

__all__ = [
    "RulesError",
    "UnknownRuleError",
    "PositionError",
    "UnsupportedError",
    "SolveError",
    "EngineError",
    "BudgetError",
    "CycleError",
]


class RulesError(ValueError):
    """A rules text with errors, or any request sgscope cannot answer.

    ``str(error)`` is the message the command line prints: for a rules text, the located,
    caret-marked diagnostic (``path:line:column``, the line, a caret under the span, a
    ``help:`` line). ``line`` and ``column`` (1-based) locate its first error; they are
    ``None`` for an error that is not about a place in the rules.
    """

    line: Optional[int]
    column: Optional[int]

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None):
        super().__init__(message)
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):
        return (_rebuild, (type(self), str(self), self.line, self.column))


def _rebuild(cls, message, line, column):
    return cls(message, line=line, column=column)


class UnknownRuleError(RulesError, KeyError):
    """No value rule of that name (the rules are ``sgscope.RULES``)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return RulesError.__str__(self)


class PositionError(RulesError):
    """A position given to ``solve`` that does not fit the game (bad syntax, wrong arity)."""


class UnsupportedError(RulesError):
    """A request that does not apply to this game (e.g. the period of a position game)."""


class SolveError(RulesError):
    """``solve`` found no answer (e.g. a sum beyond what a proof or the box covers)."""


class EngineError(RulesError):
    """The engine refused or failed (e.g. a rule that moves to a larger heap)."""


class BudgetError(EngineError):
    """A request past the budget: refused before any work, or stopped while running."""


class CycleError(EngineError):
    """The moves of the game can cycle where Sprague–Grundy values were needed."""


# Shown (in tracebacks, reprs) and pickled by the names users import them by.
for _class in (RulesError, UnknownRuleError, PositionError, UnsupportedError, SolveError,
               EngineError, BudgetError, CycleError):
    _class.__module__ = "sgscope"
del _class
