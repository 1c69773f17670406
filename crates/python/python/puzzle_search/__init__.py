"""puzzle-search from Python.

- :func:`jobs` and :func:`run`: every job of puzzle-search's registry (solvers, generators,
  experiments, benchmarks), run in Rust with the GIL released, its events as dicts.
- :func:`parse_xsb`, :class:`Level` and :class:`SokobanGame`: Sokoban levels and play.
- ``puzzle_search/Sokoban-v0``: a Gymnasium environment, registered on import
  (:class:`puzzle_search.envs.SokobanEnv`).

See docs/PYTHON.md in the repository.
"""

from ._puzzle_search import Level, SokobanGame, __version__, jobs, parse_xsb, run
from .envs import SokobanEnv, register_envs

register_envs()

__all__ = [
    "Level",
    "SokobanEnv",
    "SokobanGame",
    "__version__",
    "jobs",
    "parse_xsb",
    "run",
]
