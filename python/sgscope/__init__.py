"""sgscope: Sprague–Grundy values of impartial games, from Python.

Load a game from rules text, a rules file, or a family code, then ask for its values, its
period (proved where a theorem allows) or the winning moves of a sum::

    >>> import sgscope
    >>> dawson = sgscope.load("octal 0.07")          # Dawson's Kayles
    >>> dawson.table(10)
    array([0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3])
    >>> report = dawson.period()
    >>> report.preperiod, report.period, report.proved
    (53, 34, True)
    >>> dawson.solve([5, 9, 12]).outcome
    'N'

The package is a thin layer over the Rust library's facade: the values, the reports and the
error messages are those of the ``sgscope`` command line (``table --format csv``,
``period --json``, ``solve --json``).

Long calls release the GIL, stop on Ctrl-C (``KeyboardInterrupt``; the computation is stopped,
nothing keeps running) and report progress to an optional callback (``progress=``; see
:class:`Progress` and :func:`tqdm_progress`); they print nothing.
"""

from __future__ import annotations

import csv as _csv
import io as _io
import json as _json
import os as _os
import warnings as _warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as _np

from . import _sgscope
from ._errors import (
    BudgetError,
    CycleError,
    EngineError,
    PositionError,
    RulesError,
    SolveError,
    UnknownRuleError,
    UnsupportedError,
)

__all__ = [
    "load",
    "census",
    "Game",
    "PeriodReport",
    "PatternsReport",
    "SweepReport",
    "SolveReport",
    "Report",
    "Progress",
    "tqdm_progress",
    "RULES",
    "SgscopeWarning",
    "RulesError",
    "UnknownRuleError",
    "PositionError",
    "UnsupportedError",
    "SolveError",
    "EngineError",
    "BudgetError",
    "CycleError",
]

__version__ = "0.1.0"

#: The value rules a table can be asked under, in the order the library registers them.
RULES: Tuple[str, ...] = tuple(_sgscope.rules())

ProgressCallback = Callable[["Progress"], Any]
PathLike = Union[str, "_os.PathLike[str]"]


class SgscopeWarning(UserWarning):
    """Something sgscope tells before a result, such as a game valued as a loopy game."""


def load(source: PathLike, /, **params: int) -> "Game":
    """Load a game.

    ``source`` is, as on the command line, the path of a rules file (``"rules/kayles.sg"``, a
    :class:`pathlib.Path`, a graph or Hackenbush file) if such a file exists, else rules text
    itself: a family code such as ``"octal 0.07"`` or ``"subtraction {1, 3, 4}"``, or whole
    ``move`` rules. A single word ending in ``.sg`` or holding a ``/`` is taken as a path, so a
    misspelt file name raises :class:`FileNotFoundError` rather than a rules error.

    Keyword arguments set the rules' parameters, like ``--set k=5``::

        >>> sgscope.load("rules/nim-k.sg", k=3).params
        {'k': 3}

    Raises :class:`RulesError` (its text the located, caret-marked diagnostic the command line
    prints, with ``line`` and ``column``) for rules with errors, and :class:`OSError`
    subclasses for a file that cannot be read.
    """
    values: List[Tuple[str, int]] = []
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"parameter {key!r} must be an integer, not {type(value).__name__}")
        values.append((key, value))
    if isinstance(source, _os.PathLike):
        return Game._from_native(_sgscope.load_path(_os.fspath(source), values))
    if not isinstance(source, str):
        raise TypeError(f"load() takes rules text or a path, not {type(source).__name__}")
    if _os.path.exists(source) or _looks_like_path(source):
        return Game._from_native(_sgscope.load_path(source, values))
    return Game._from_native(_sgscope.load_text("<string>", source, values))


def census(
    family: str,
    *,
    digits: Optional[int] = None,
    max_element: Optional[int] = None,
    max: Optional[int] = None,
    sparse_max: Optional[int] = None,
    progress: Optional[ProgressCallback] = None,
) -> List[Dict[str, Any]]:
    """A census of a family of games: one row (a dict) per code, as
    ``sgscope census FAMILY … --format jsonl`` writes them.

    ``family`` is ``"octal"`` (every octal code ``0.d1…dk`` and ``4.d1…dk`` with
    ``k <= digits``) or ``"subtraction"`` (every finite and all-but subtraction set of elements
    at most ``max_element``). Each code is searched for a period in ``G(0..=max)`` (default
    65536), sparse ones on to ``sparse_max``. Rows have the fields of the command line's
    JSON lines: ``code``, ``preperiod``, ``period``, ``saltus``, ``proved``, ``class``, …

        >>> rows = sgscope.census("octal", digits=1, max=1024)
        >>> [(r["code"], r["period"]) for r in rows][:3]
        [('0.0', 1), ('0.1', 1), ('0.2', 2)]
    """
    if family == "octal":
        size, other = digits, max_element
        needed = "digits="
    elif family == "subtraction":
        size, other = max_element, digits
        needed = "max_element="
    else:
        raise UnsupportedError(
            f"the census families are `octal` and `subtraction`, not `{family}`"
        )
    if size is None or other is not None:
        raise TypeError(f"a census of {family} codes takes {needed} (and not the other family's bound)")
    text = _native_call(
        lambda p: _sgscope.census(family, int(size), max, sparse_max, p), progress
    )
    return [_json.loads(line) for line in text.splitlines() if line.strip()]


def _native_call(call: Callable[[Any], Any], progress: Optional[ProgressCallback]) -> Any:
    return call(_native_progress(progress))


def _looks_like_path(text: str) -> bool:
    """A single word ending in ``.sg`` or holding a path separator is meant as a file."""
    return not any(c.isspace() for c in text) and (text.endswith(".sg") or "/" in text)


@dataclass(frozen=True)
class Progress:
    """One progress update of a long call, handed to the ``progress=`` callback.

    ``done`` of ``total`` things (``counted``: ``"positions"`` of a table, or ``"sums"``,
    ``"rounds"``…) are done; ``total`` is exact when ``exact``, else an upper bound.
    ``event`` is ``"started"``, ``"reached"`` or ``"finished"``; a call may run several
    stages (a period search grows its table), each started and finished.
    """

    event: str
    counted: str
    exact: bool
    start: int
    reached: int
    end: int
    elapsed: float
    per_second: Optional[float]
    seconds_left: Optional[float]
    stalled_at: Optional[int]

    @property
    def done(self) -> int:
        """Things done in this stage."""
        return max(self.reached - self.start, 0)

    @property
    def total(self) -> int:
        """Things in this stage (an upper bound unless ``exact``)."""
        return max(self.end - self.start, 0)


def tqdm_progress(**tqdm_args: Any) -> ProgressCallback:
    """A ``progress=`` callback that draws a `tqdm <https://tqdm.github.io>`_ bar per stage.

    Keyword arguments go to ``tqdm.tqdm`` (e.g. ``leave=False``). Needs tqdm installed.
    """
    from tqdm.auto import tqdm  # type: ignore[import-not-found]

    bar: List[Any] = []

    def callback(update: Progress) -> None:
        if update.event == "started" or not bar:
            if bar:
                bar.pop().close()
            bar.append(tqdm(total=update.total, unit=" " + update.counted, **tqdm_args))
        current = bar[0]
        current.total = update.total
        current.n = update.done
        current.refresh()
        if update.event == "finished":
            bar.pop().close()

    return callback


def _native_progress(progress: Optional[ProgressCallback]):
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError("progress must be a callable taking a sgscope.Progress")
    return lambda update: progress(Progress(**update))


class Report:
    """A report of the command line's ``--json`` output: each field an attribute.

    ``to_dict()`` returns the fields as the JSON object has them (nested objects as dicts);
    reports compare equal when their fields do, and pickle.
    """

    def __init__(self, fields: Mapping[str, Any]):
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._fields == self._fields  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(_json.dumps(self._fields, sort_keys=True))

    def __reduce__(self):
        return (type(self), (self._fields,))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in list(self._fields.items())[:6])
        more = ", …" if len(self._fields) > 6 else ""
        return f"{type(self).__name__}({shown}{more})"

    def keys(self) -> List[str]:
        """The fields, in the order of the JSON object."""
        return list(self._fields)

    def to_dict(self) -> Dict[str, Any]:
        """The fields as the JSON object of the command line's ``--json`` has them."""
        return _json.loads(_json.dumps(self._fields))


class PeriodReport(Report):
    """The report of ``sgscope period --json``: ``preperiod``, ``period``, ``saltus``,
    ``proved``, ``values_computed``, ``reason`` (the theorem and what it checked: the proof's
    certificate in words, with ``proof_bound``), the rare-value statistics, ``cousin`` and the
    timing (``seconds``, ``values_per_second``), under the same names. In misère play
    (``play="misere"``), the fields of ``period --misere --json``."""


class PatternsReport(Report):
    """The report of ``sgscope patterns --json``: where the P-positions lie (criteria for any
    number of coordinates, periods along lines of a two-coordinate box), a closed ``formula``
    of the values for one or two coordinates, and in normal play the
    ``smallest_winning_move``'s closed form, under the same names. What it finds holds on the
    box analysed, and is not proved beyond it."""


class SolveReport(Report):
    """The report of ``sgscope solve --json``: ``outcome`` (``"P"``, ``"N"`` or, for games
    that can cycle, ``"D"``), ``value``, the winning moves and the method, under the same
    names."""


class SweepReport(Report):
    """The report of ``sgscope sweep --format json``: ``partial`` and ``unsolved`` (the
    instances without a period, or a position game's without a criterion), ``headline``,
    ``instances`` (one dict each, as ``--format jsonl``) and ``formulas`` (per quantity:
    ``pieces`` with ``when`` and ``formula``, ``complete``, ``missing``, ``every_n``;
    ``proved`` is always false: a formula is observed on the instances swept)."""


def _range_text(name: str, values: Any) -> str:
    if isinstance(values, bool):
        raise TypeError(f"{name}= is a range, a list of integers, an integer or a range text")
    if isinstance(values, int):
        return str(values)
    if isinstance(values, str):
        return values
    if isinstance(values, range):
        if values.step != 1:
            return ",".join(str(v) for v in values)
        return f"{values.start}..{values.stop}"
    try:
        listed = [int(v) for v in values]
    except TypeError:
        raise TypeError(
            f"{name}= is a range, a list of integers, an integer or a range text such as '1..=30'"
        ) from None
    return ",".join(str(v) for v in listed)


class Game:
    """A loaded game: use :func:`load`.

    Attributes: ``name``, ``kind`` (``"heap"``, ``"position"``, ``"graph"`` or
    ``"hackenbush"``), ``coordinates`` (the names of a position's coordinates, ``("n",)`` for
    a heap game), ``takebreak_code`` (the take-and-break code, e.g. ``"0.07"``, or ``None``), ``play``
    (the file's ``play`` line: ``"normal"``, ``"misere"`` or ``None``), ``params``.
    """

    __slots__ = ("_native",)

    def __init__(self) -> None:
        raise TypeError("use sgscope.load(...) to make a Game")

    @classmethod
    def _from_native(cls, native: Any) -> "Game":
        game = object.__new__(cls)
        game._native = native
        return game

    # Pickled as its rules text and parameters (loaded again when unpickled).
    def __reduce__(self):
        return (_reload, (self._native.source_name, self._native.source_text, self.params))

    @property
    def name(self) -> str:
        """The game's name: its ``name`` line, or the family form (``"octal 0.07"``)."""
        return self._native.name

    @property
    def kind(self) -> str:
        """``"heap"``, ``"position"``, ``"graph"`` or ``"hackenbush"``."""
        return self._native.kind

    @property
    def coordinates(self) -> Tuple[str, ...]:
        """The names of a position's coordinates (``("n",)`` for a heap game)."""
        return tuple(self._native.coordinates)

    @property
    def takebreak_code(self) -> Optional[str]:
        """The take-and-break code the game is or was lowered to (``"0.07"``), else ``None``."""
        return self._native.takebreak_code

    @property
    def play(self) -> Optional[str]:
        """The play convention of the file's ``play`` line, or ``None`` if it has none."""
        return self._native.play

    @property
    def params(self) -> Dict[str, int]:
        """The parameters' values (after those set by :func:`load`)."""
        return dict(self._native.params)

    def __repr__(self) -> str:
        code = self.takebreak_code
        code = f" (code {code})" if code and code != self.name.split()[-1] else ""
        return f"<sgscope.Game {self.name!r}{code}: {self.kind} game>"

    def _rule(self, rule: Optional[str], play: Optional[str]) -> str:
        if rule is not None and play is not None:
            raise TypeError("give rule= or play=, not both")
        if rule is None:
            rule = _play(play) if play is not None else (self.play or "normal")
        if not isinstance(rule, str):
            raise TypeError(f"rule must be a string, not {type(rule).__name__}")
        return rule

    def _extents(self, to: Union[int, Sequence[int], Mapping[str, int], None]) -> List[int]:
        if self.kind in ("graph", "hackenbush"):
            return []
        names = self.coordinates
        if to is None:
            to = 100
        if isinstance(to, Mapping):
            unknown = [k for k in to if k not in names]
            missing = [n for n in names if n not in to]
            if unknown or missing:
                raise ValueError(
                    f"to= names each coordinate of {self.name} once: {', '.join(names)}"
                    + (f" (unknown: {', '.join(map(str, unknown))})" if unknown else "")
                )
            extents = [to[n] for n in names]
        elif isinstance(to, (int, _np.integer)) and not isinstance(to, bool):
            extents = [int(to)] * len(names)
        else:
            extents = [int(t) for t in to]
            if len(extents) != len(names):
                raise ValueError(
                    f"{self.name} has {len(names)} coordinate(s) ({', '.join(names)}): to= gives {len(extents)}"
                )
        if any(e < 0 for e in extents):
            raise ValueError("to= bounds are non-negative")
        return extents

    def table(
        self,
        to: Union[int, Sequence[int], Mapping[str, int], None] = None,
        *,
        rule: Optional[str] = None,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> _np.ndarray:
        """The values of every position ``0..=to``, as ``sgscope table --to TO --format csv``.

        ``to`` bounds every coordinate (default 100), or gives one bound each (a sequence in
        the order of :attr:`coordinates`, or a mapping by name); a graph file is valued
        whole. ``rule`` is a value rule of :data:`RULES` (default: ``play``, else the file's
        ``play`` line, else ``"normal"``); ``play`` is ``"normal"`` or ``"misere"``.

        Normal play returns an ``int64`` array of Sprague–Grundy values: ``G(0..=to)`` for a
        heap game, an array of shape ``(to_1 + 1, …, to_k + 1)`` for a position game
        (``a[x, y]`` is the value of ``(x, y)``). Every other table (misère, loopy, outcomes,
        graph and Hackenbush files) is a structured array, one row per position with the
        columns of the command line's CSV: the coordinates (or ``node``), then e.g. ``sg``,
        ``misere_sg``, ``genus``, or ``outcome``, ``remoteness``, ``value``. Integer columns
        are ``int64``; a column with empty cells (the remoteness of a draw) holds ``None``.
        """
        rule = self._rule(rule, play)
        extents = self._extents(to)
        notices: List[str] = []
        result = self._run(
            lambda p: self._native.value(rule, extents, p, notices), progress
        )
        for text in notices:
            _warnings.warn(text, SgscopeWarning, stacklevel=2)
        if result[0] == "normal":
            _, shape, data = result
            values = _np.frombuffer(data, dtype="<u4").astype(_np.int64)
            return values.reshape(tuple(shape))
        return _structured(result[1])

    def period(
        self,
        max: Optional[int] = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> PeriodReport:
        """The period of a heap game's values, as ``sgscope period --json``.

        Grows the table until a period is proved (the octal periodicity theorem and its
        relatives) or ``G(0..=max)`` is computed (default: 65536, or more for games with large
        moves; 2048 in misère play). The report's fields are those of ``period --json``
        (``preperiod``, ``period``, ``saltus``, ``proved``, ``reason``, …).
        """
        if max is not None and (isinstance(max, bool) or int(max) < 0):
            raise ValueError("max= is a non-negative integer")
        misere = _play(play if play is not None else (self.play or "normal")) == "misere"
        text = self._run(
            lambda p: self._native.period(None if max is None else int(max), misere, p),
            progress,
        )
        return PeriodReport(_json.loads(text))

    def patterns(
        self,
        to: Union[int, Sequence[int], Mapping[str, int], None] = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> PatternsReport:
        """Patterns in the values over the box ``0..=to``, as ``sgscope patterns --json``.

        ``to`` is as in :meth:`table` (default 100); ``play="misere"`` looks for the patterns
        of the misère P-positions. The findings hold on the box, not proved beyond it.
        """
        misere = _play(play if play is not None else (self.play or "normal")) == "misere"
        extents = self._extents(to)
        text = self._run(lambda p: self._native.patterns(extents, misere, p), progress)
        return PatternsReport(_json.loads(text))

    def sweep(
        self,
        *,
        max: Optional[int] = None,
        to: Optional[int] = None,
        progress: Optional[ProgressCallback] = None,
        **ranges: Union[int, str, range, Sequence[int]],
    ) -> "SweepReport":
        """The game over ranges of its parameters, as ``sgscope sweep --format json``: each
        instance's period (a position game: its box's P-position criterion) and the formulas
        in the parameters that hold on every instance they cover (observed, not proved).

        Each keyword is a parameter, in order: ``k=range(1, 51)``, ``a=[2, 3, 5]``, ``k=7``,
        or the command line's text, ``R="L..=8"`` (a bound may use an earlier parameter).

            >>> bash = sgscope.load("rules/bash.sg")
            >>> report = bash.sweep(k=range(1, 21))
            >>> [f["pieces"][0]["formula"] for f in report.formulas][:2]
            ['k + 1', '0']
        """
        if not ranges:
            raise TypeError("sweep() takes at least one parameter range, e.g. k=range(1, 31)")
        sets = [f"{name}={_range_text(name, values)}" for name, values in ranges.items()]
        for value, flag in ((max, "max"), (to, "to")):
            if value is not None and (isinstance(value, bool) or int(value) < 0):
                raise ValueError(f"{flag}= is a non-negative integer")
        text = self._run(
            lambda p: self._native.sweep(
                sets, None if max is None else int(max), None if to is None else int(to), p
            ),
            progress,
        )
        return SweepReport(_json.loads(text))

    def code(
        self,
        lang: str = "python",
        *,
        max: Optional[int] = None,
        to: Union[int, Sequence[int], Mapping[str, int], None] = None,
        extrapolate: bool = False,
        table: bool = False,
        allow_large: bool = False,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> str:
        """A lookup function ``sg(...)`` in ``lang`` (``"cpp"``, ``"python"``, ``"rust"``,
        ``"java"``), as ``sgscope code --lang LANG`` writes it.

        A heap game's snippet extends its period (proved, or with ``extrapolate=True`` only
        observed) to any n, or a closed form observed on the table, else is the table
        ``G(0..=to)`` (default 1000) with a guard beyond it; a position game's is a closed
        form or a P-position criterion observed on the box ``0..=to`` (``table=True``: the
        box's table). What the snippet extrapolates without a proof is said in it and with
        a :class:`SgscopeWarning`. A table past 256 KiB of source is refused unless
        ``allow_large=True``; ``max`` bounds the period search as in :meth:`period`.
        """
        misere = _play(play if play is not None else (self.play or "normal")) == "misere"
        extents = None if to is None else self._extents(to)
        snippet, notes = self._run(
            lambda p: self._native.snippet(
                lang, max, extents, extrapolate, table, allow_large, misere, p
            ),
            progress,
        )
        for note in notes:
            if note.startswith("warning: "):
                _warnings.warn(note[len("warning: "):], SgscopeWarning, stacklevel=2)
        return snippet

    def solve(
        self,
        position: Union[int, str, Sequence[Any], None] = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> SolveReport:
        """Who wins a sum of positions, and how, as ``sgscope solve --json``.

        ``position`` is one heap (``7``), a sum of heaps (``[3, 5, 7]``), a sum of positions
        of a position game (``[(3, 4), (5, 2)]``), or the command line's text (``"3 5 7"``,
        ``"(3, 4) + (5, 2)"``, a graph file's ``"a + b"``); a graph file without one is
        solved at its ``start`` node, a Hackenbush file as a whole. ``play`` is ``"normal"``
        or ``"misere"`` (default: the file's ``play`` line). The report has ``outcome``,
        ``value`` and the winning moves.
        """
        misere = _play(play if play is not None else (self.play or "normal")) == "misere"
        text, components = _position(position, len(self.coordinates), self.kind)
        report = self._run(
            lambda p: self._native.solve(text, components, misere, p), progress
        )
        return SolveReport(_json.loads(report))

    def _run(self, call: Callable[[Any], Any], progress: Optional[ProgressCallback]) -> Any:
        return call(_native_progress(progress))


def _reload(name: str, text: str, params: Dict[str, int]) -> Game:
    return Game._from_native(_sgscope.load_text(name, text, list(params.items())))


def _play(play: str) -> str:
    words = {"normal": "normal", "misere": "misere", "misère": "misere"}
    if play not in words:
        raise ValueError(f"play= is 'normal' or 'misere', not {play!r}")
    return words[play]


def _position(
    position: Union[int, str, Sequence[Any], None], arity: int, kind: str
) -> Tuple[str, Optional[List[List[int]]]]:
    """The command line's text of a position, or its components."""
    if position is None:
        if kind in ("graph", "hackenbush"):
            return "", None
        raise TypeError("solve() needs a position: a heap, a list of heaps or of tuples")
    if isinstance(position, str):
        return position, None
    if kind in ("graph", "hackenbush"):
        if isinstance(position, Sequence):
            return " + ".join(str(p) for p in position), None
        raise TypeError("a graph file's position is a node name, or a list of them")
    if isinstance(position, (int, _np.integer)) and not isinstance(position, bool):
        position = [position]
    components: List[List[int]] = []
    for component in position:
        if isinstance(component, (int, _np.integer)) and not isinstance(component, bool):
            components.append([int(component)])
        else:
            components.append([int(c) for c in component])
    for component in components:
        if len(component) != arity or any(c < 0 for c in component):
            shown = "(" + ", ".join(map(str, component)) + ")" if len(component) != 1 else str(component[0])
            raise PositionError(
                f"`{shown}` is not a position of this game: a position is {arity} non-negative integer(s)"
            )
    if not components:
        raise PositionError("the sum is empty: give at least one position")
    return "", components


def _structured(text: str) -> _np.ndarray:
    """The rows of the command line's CSV as a structured array."""
    rows = list(_csv.reader(_io.StringIO(text)))
    header, body = rows[0], rows[1:]
    columns = list(zip(*body)) if body else [() for _ in header]
    dtype = []
    converted = []
    for name, cells in zip(header, columns):
        if all(_is_int(c) for c in cells):
            dtype.append((name, _np.int64))
            converted.append([int(c) for c in cells])
        elif all(c == "" or _is_int(c) for c in cells):
            dtype.append((name, object))
            converted.append([int(c) if c else None for c in cells])
        else:
            dtype.append((name, f"U{max([len(c) for c in cells] + [1])}"))
            converted.append(list(cells))
    return _np.array(list(zip(*converted)) if body else [], dtype=dtype)


def _is_int(cell: str) -> bool:
    return cell.lstrip("-").isdigit()
