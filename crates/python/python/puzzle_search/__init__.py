"""puzzle-search from Python.

- :func:`jobs` and :func:`run`: every job of puzzle-search's registry (solvers, generators,
  experiments, benchmarks), run in Rust with the GIL released, its events as dicts.
- :func:`parse_xsb`, :class:`Level`, :class:`SokobanGame`, :func:`sokoban_sets` and
  :func:`sokoban_set`: Sokoban levels, the bundled sets, and play.
- Gymnasium environments, registered on import (:mod:`puzzle_search.envs`):
  ``puzzle_search/Sokoban-v0`` (with a Rust vector environment), ``puzzle_search/SameGame-v0``,
  ``puzzle_search/Sudoku-v0``, ``puzzle_search/Bait-v0``.

See docs/PYTHON.md in the repository.
"""

from ._puzzle_search import (
    Level,
    SokobanGame,
    __version__,
    jobs,
    parse_xsb,
    run,
    sokoban_set,
    sokoban_sets,
)
from .envs import BaitEnv, SameGameEnv, SokobanEnv, SokobanVectorEnv, SudokuEnv, register_envs

register_envs()

__all__ = [
    "BaitEnv",
    "Level",
    "SameGameEnv",
    "SudokuEnv",
    "SokobanEnv",
    "SokobanGame",
    "SokobanVectorEnv",
    "__version__",
    "jobs",
    "parse_xsb",
    "run",
    "sokoban_set",
    "sokoban_sets",
]
