"""Type stubs of the sgscope package (see the docstrings of ``sgscope/__init__.py``)."""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._errors import (
    BudgetError as BudgetError,
    CycleError as CycleError,
    EngineError as EngineError,
    PositionError as PositionError,
    RulesError as RulesError,
    SolveError as SolveError,
    UnknownRuleError as UnknownRuleError,
    UnsupportedError as UnsupportedError,
)

__version__: str
RULES: Tuple[str, ...]

class SgscopeWarning(UserWarning): ...

class Progress:
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
    def __init__(
        self,
        event: str,
        counted: str,
        exact: bool,
        start: int,
        reached: int,
        end: int,
        elapsed: float,
        per_second: Optional[float],
        seconds_left: Optional[float],
        stalled_at: Optional[int],
    ) -> None: ...
    @property
    def done(self) -> int: ...
    @property
    def total(self) -> int: ...

ProgressCallback = Callable[[Progress], Any]
To = Union[int, Sequence[int], Mapping[str, int], None]
Position = Union[int, str, Sequence[Union[int, Sequence[int], str]], None]

def tqdm_progress(**tqdm_args: Any) -> ProgressCallback: ...
def load(source: Union[str, os.PathLike[str]], /, **params: int) -> Game: ...

def census(
    family: str,
    *,
    digits: Optional[int] = None,
    max_element: Optional[int] = None,
    max: Optional[int] = None,
    sparse_max: Optional[int] = None,
    progress: Optional[ProgressCallback] = None,
) -> List[Dict[str, Any]]: ...

class Report:
    def __init__(self, fields: Mapping[str, Any]) -> None: ...
    def __getattr__(self, name: str) -> Any: ...
    def keys(self) -> List[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class PeriodReport(Report):
    game: str
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    proved: bool
    values_computed: int
    reason: str

class PatternsReport(Report): ...

class SweepReport(Report):
    game: str
    params: List[str]
    ranges: List[str]
    partial: bool
    unsolved: List[List[int]]
    headline: str
    instances: List[Dict[str, Any]]
    formulas: List[Dict[str, Any]]

class SolveReport(Report):
    outcome: str
    value: Any
    position: Any
    play: str
    method: str
    complete: bool
    winning_moves: List[Dict[str, Any]]

class Game:
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def coordinates(self) -> Tuple[str, ...]: ...
    @property
    def takebreak_code(self) -> Optional[str]: ...
    @property
    def play(self) -> Optional[str]: ...
    @property
    def params(self) -> Dict[str, int]: ...
    def table(
        self,
        to: To = None,
        *,
        rule: Optional[str] = None,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> npt.NDArray[Any]: ...
    def period(
        self,
        max: Optional[int] = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> PeriodReport: ...
    def patterns(
        self,
        to: To = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> PatternsReport: ...
    def sweep(
        self,
        *,
        max: Optional[int] = None,
        to: Optional[int] = None,
        progress: Optional[ProgressCallback] = None,
        **ranges: Union[int, str, range, Sequence[int]],
    ) -> SweepReport: ...
    def code(
        self,
        lang: str = "python",
        *,
        max: Optional[int] = None,
        to: To = None,
        extrapolate: bool = False,
        table: bool = False,
        allow_large: bool = False,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> str: ...
    def solve(
        self,
        position: Position = None,
        *,
        play: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> SolveReport: ...
