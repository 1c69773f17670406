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

class JobEvents:
    """A running job's events, as an iterator of dicts (progress included); ends when the job
    does, raising its error if it failed. A context manager: leaving it stops the job."""

    def __iter__(self) -> "JobEvents": ...
    def __next__(self) -> dict[str, Any]: ...
    def stop(self) -> None:
        """Ask the job to stop; its last events (the summary) still arrive."""
    @property
    def job(self) -> str: ...
    def __enter__(self) -> "JobEvents": ...
    def __exit__(self, *exception: object) -> bool: ...

def events(job: str, **options: Any) -> JobEvents:
    """Start a job (options as ``run``) and iterate over its events as they arrive."""

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

def sokoban_sets() -> list[tuple[str, str]]:
    """The bundled Sokoban sets as ``(id, name)``."""

def sokoban_set(id: str) -> list[Level]:
    """The levels of a bundled Sokoban set; ValueError naming the sets for an unknown id."""

def bundled_text(game: str, id: str) -> str:
    """The text of a bundled SameGame (``"standard20"``) or Sudoku (``"top95"``, …) set."""

Rewards = tuple[float, float, float, float]

SOKOBAN_RGB_PIXELS: int

class SokobanCore:
    """One Sokoban episode stepped in Rust (the engine of ``SokobanEnv``)."""

    def __init__(
        self,
        levels: list[Level],
        max_size: tuple[int, int],
        observation: str,
        max_steps: int,
        actions: int,
        rewards: Rewards,
    ) -> None: ...
    def seed(self, state: int) -> None: ...
    def reset(self, level: Optional[int] = None) -> tuple[npt.NDArray[np.uint8], int]: ...
    def step(self, action: int) -> tuple[npt.NDArray[np.uint8], float, bool, bool]:
        """``(observation, reward, terminated, truncated)``."""
    @property
    def deadlocked(self) -> bool: ...
    @property
    def boxes_on_goals(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def level(self) -> int: ...
    def position_xsb(self) -> str: ...
    def rgb(self) -> npt.NDArray[np.uint8]:
        """The position as an RGB image ``(H*8, W*8, 3)``."""
    def cells(self) -> npt.NDArray[np.uint8]:
        """Cell flags of the level's own size: 1 wall, 2 goal, 4 box, 8 player."""

class SokobanBatch:
    """N Sokoban episodes stepped per call in Rust (the engine of ``SokobanVectorEnv``)."""

    def __init__(
        self,
        count: int,
        levels: list[Level],
        max_size: tuple[int, int],
        observation: str,
        max_steps: int,
        actions: int,
        rewards: Rewards,
        threads: int,
    ) -> None: ...
    def reset(self, states: list[int]) -> npt.NDArray[np.uint8]: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float64],
        terminations: npt.NDArray[np.bool_],
        truncations: npt.NDArray[np.bool_],
    ) -> npt.NDArray[np.uint8]:
        """Step (or auto-reset) every episode; the returned array is updated in place later."""
    def boxes_on_goals(self) -> npt.NDArray[np.uint32]: ...
    def levels(self) -> npt.NDArray[np.uint64]: ...

class SameGameCore:
    """A SameGame game (the engine of ``SameGameEnv``)."""

    def __init__(
        self,
        text: Optional[str] = None,
        source: str = "input",
        random: Optional[tuple[int, int, int]] = None,
        scoring: str = "standard",
        penalty: str = "none",
    ) -> None: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def board_count(self) -> Optional[int]: ...
    def reset(self, index: int, seed: int) -> None: ...
    def observation(self) -> npt.NDArray[np.uint8]: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    def step(self, action: int) -> tuple[int, bool, bool, int]:
        """``(points, legal, ended, end_adjustment)``."""
    @property
    def points(self) -> int: ...
    @property
    def stones(self) -> int: ...
    def text(self) -> str: ...

class SudokuCore:
    """A Sudoku being filled in (the engine of ``SudokuEnv``)."""

    def __init__(self, text: str, source: str = "input") -> None: ...
    @property
    def side(self) -> int: ...
    @property
    def puzzle_count(self) -> int: ...
    def reset(self, index: int) -> None: ...
    def observation(self) -> npt.NDArray[np.uint8]: ...
    def action_mask(self) -> npt.NDArray[np.int8]: ...
    def step(self, action: int) -> tuple[bool, bool, bool]:
        """``(legal, solved, stuck)``."""
    def line(self) -> str: ...

class BaitCore:
    """A Bait game (the engine of ``BaitEnv``)."""

    def __init__(self, level: Optional[int] = None, text: Optional[str] = None, source: str = "input") -> None: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    def reset(self) -> None: ...
    def observation(self) -> npt.NDArray[np.uint8]: ...
    def step(self, action: int) -> tuple[int, str]:
        """``(points, status)``."""
    @property
    def points(self) -> int: ...
    @property
    def tick(self) -> int: ...
    def solve(self, max_nodes: int = 2_000_000) -> Optional[list[int]]: ...
