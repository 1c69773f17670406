"""Gymnasium environments over puzzle-search's games, registered when ``puzzle_search`` is
imported::

    import gymnasium, puzzle_search
    env = gymnasium.make("puzzle_search/Sokoban-v0", max_steps=200)
    envs = gymnasium.make_vec("puzzle_search/Sokoban-v0", num_envs=1024,
                              vectorization_mode="vector_entry_point")
"""

from __future__ import annotations

import gymnasium as gym

from .games_env import BaitEnv, BaitVectorEnv, SameGameEnv, SameGameVectorEnv, SudokuEnv, SudokuVectorEnv
from .sokoban_env import (
    CELL_PIXELS,
    DEFAULT_GENERATE,
    LURD_ACTIONS,
    SokobanEnv,
    SokobanVectorEnv,
    generate_levels,
    solve_all_optimally,
    solve_optimally,
)

SOKOBAN_ID = "puzzle_search/Sokoban-v0"
"""The Gymnasium id of :class:`SokobanEnv` (vector entry point :class:`SokobanVectorEnv`)."""

SAMEGAME_ID = "puzzle_search/SameGame-v0"
"""The Gymnasium id of :class:`SameGameEnv` (vector entry point :class:`SameGameVectorEnv`)."""

SUDOKU_ID = "puzzle_search/Sudoku-v0"
"""The Gymnasium id of :class:`SudokuEnv` (vector entry point :class:`SudokuVectorEnv`)."""

BAIT_ID = "puzzle_search/Bait-v0"
"""The Gymnasium id of :class:`BaitEnv` (vector entry point :class:`BaitVectorEnv`)."""

#: Every environment id with its entry point and vector entry point (the Rust vector
#: environment, for ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``).
ENVIRONMENTS = {
    SOKOBAN_ID: ("puzzle_search.envs:SokobanEnv", "puzzle_search.envs:SokobanVectorEnv"),
    SAMEGAME_ID: ("puzzle_search.envs:SameGameEnv", "puzzle_search.envs:SameGameVectorEnv"),
    SUDOKU_ID: ("puzzle_search.envs:SudokuEnv", "puzzle_search.envs:SudokuVectorEnv"),
    BAIT_ID: ("puzzle_search.envs:BaitEnv", "puzzle_search.envs:BaitVectorEnv"),
}


def register_envs() -> None:
    """Register every ``puzzle_search/…`` environment with Gymnasium (once)."""
    for env_id, (entry_point, vector_entry_point) in ENVIRONMENTS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry_point, vector_entry_point=vector_entry_point)


__all__ = [
    "BAIT_ID",
    "BaitEnv",
    "BaitVectorEnv",
    "SAMEGAME_ID",
    "SUDOKU_ID",
    "SameGameEnv",
    "SameGameVectorEnv",
    "SudokuEnv",
    "SudokuVectorEnv",
    "CELL_PIXELS",
    "DEFAULT_GENERATE",
    "ENVIRONMENTS",
    "LURD_ACTIONS",
    "SOKOBAN_ID",
    "SokobanEnv",
    "SokobanVectorEnv",
    "generate_levels",
    "register_envs",
    "solve_all_optimally",
    "solve_optimally",
]
