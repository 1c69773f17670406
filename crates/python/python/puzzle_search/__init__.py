"""puzzle-search from Python.

- :func:`jobs`, :func:`run` and :func:`events`: every job of puzzle-search's registry (solvers,
  generators, experiments, benchmarks), run in Rust with the GIL released, its events as dicts
  (collected, through a callback, or as an iterator).
- :func:`parse_xsb`, :class:`Level`, :class:`SokobanGame`, :func:`sokoban_sets` and
  :func:`sokoban_set`: Sokoban levels, the bundled sets, and play.
- Gymnasium environments, registered on import (:mod:`puzzle_search.envs`):
  ``puzzle_search/Sokoban-v0`` (with a Rust vector environment), ``puzzle_search/SameGame-v0``,
  ``puzzle_search/Sudoku-v0``, ``puzzle_search/Bait-v0``.

See docs/PYTHON.md in the repository.
"""

from ._puzzle_search import (
    JobEvents,
    Level,
    SokobanGame,
    __version__,
    events,
    jobs,
    parse_xsb,
    run,
    sokoban_set,
    sokoban_sets,
)
from .envs import (
    BaitEnv,
    BaitVectorEnv,
    SameGameEnv,
    SameGameVectorEnv,
    SokobanEnv,
    SokobanVectorEnv,
    SudokuEnv,
    SudokuVectorEnv,
    register_envs,
)

register_envs()

__all__ = [
    "BaitEnv",
    "BaitVectorEnv",
    "JobEvents",
    "Level",
    "SameGameEnv",
    "SameGameVectorEnv",
    "SudokuEnv",
    "SudokuVectorEnv",
    "SokobanEnv",
    "SokobanGame",
    "SokobanVectorEnv",
    "__version__",
    "events",
    "jobs",
    "parse_xsb",
    "run",
    "sokoban_set",
    "sokoban_sets",
]
