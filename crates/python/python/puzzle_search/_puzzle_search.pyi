"""Type stubs of the Rust extension module ``puzzle_search._puzzle_search``."""

from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

__version__: str

def jobs() -> list[dict[str, Any]]:
    """Every job of the registry: ``{"name", "title", "schema"}`` (schema = JSON Schema)."""

def run(
    job: str,
    on_event: Optional[Callable[[dict[str, Any]], object]] = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Run a job; return its result and summary events ``{"kind": …, **record}``.

    Raises ValueError for a bad request, RuntimeError when the job fails; on
    KeyboardInterrupt the job is stopped and the exception re-raised (``.events`` holds the
    events so far).
    """

class Level:
    """A Sokoban level parsed from XSB (immutable)."""

    def __init__(self, xsb: str) -> None: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def box_count(self) -> int: ...
    @property
    def xsb(self) -> str: ...
    def planes(self) -> npt.NDArray[np.uint8]:
        """Shape ``(4, height, width)``: walls, goals, boxes, player."""

def parse_xsb(text: str, source: str = "input") -> list[Level]:
    """Every level of an XSB text; ValueError with source, level, line and column."""

class SokobanGame:
    """A Sokoban level being played."""

    def __init__(self, level: Level | str) -> None: ...
    def step(self, action: int) -> tuple[bool, bool]:
        """0 up, 1 down, 2 left, 3 right; returns ``(moved, pushed)``."""
    def reset(self) -> None: ...
    @property
    def boxes_on_goals(self) -> int: ...
    @property
    def box_count(self) -> int: ...
    @property
    def solved(self) -> bool: ...
    @property
    def deadlocked(self) -> bool: ...
    @property
    def lurd(self) -> str: ...
    @property
    def moves(self) -> int: ...
    @property
    def pushes(self) -> int: ...
    @property
    def player(self) -> tuple[int, int]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def level(self) -> Level: ...
    def position(self) -> Level: ...
    def planes(self) -> npt.NDArray[np.uint8]:
        """Shape ``(4, height, width)``: walls, goals, boxes, player."""
