"""SameGame, Sudoku and Bait as Gymnasium environments, on the games' Rust rules, with action
masks in ``info["action_mask"]`` (as Gymnasium's Taxi and jumanji's environments) and the
solvers as oracles (``env.unwrapped.solve()``).
"""

from __future__ import annotations

import os
from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._puzzle_search import BaitCore, SameGameCore, SudokuCore, bundled_text, run


def _read(path: os.PathLike | str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


class SameGameEnv(gym.Env):
    """SameGame (Clickomania): click a group of two or more stones of one colour to remove it.

    **Boards** (one of): ``board_set`` (default ``"standard20"``, the 20 standard 15×15 boards
    with 5 colours), ``boards`` (text in any of the board formats: standard, digits, CSV),
    ``board_file``, or ``random=(width, height, colours)`` (a fresh random board every reset,
    drawn with ``np_random``). A reset draws a board of the list with ``np_random``;
    ``options={"board": i}`` picks board ``i``.

    **Observation**: ``Box(0, colours, (H, W), uint8)``, colours 1-based, 0 empty, rows from
    the top, the board in the top-left corner. **Actions**: ``Discrete(H * W)``, the cell
    ``row * W + column`` to click; ``info["action_mask"]`` (``int8``) marks the cells whose
    click removes a group. A click elsewhere changes nothing (reward 0).

    **Rewards**: the points of each removal under ``scoring`` (``"standard"``: (n − 2)²; or
    ``"hungarian"``: (n − 1)²), plus the end's adjustment when no group is left (the standard
    scoring's +1000 for a cleared board, or minus ``penalty`` for stones left), so an
    episode's return is the game's score. ``terminated`` when no group is left; ``truncated``
    after ``max_steps`` clicks (default ``H * W``). ``info``: ``action_mask``, ``points``,
    ``stones``, ``legal`` (the last click removed a group).
    """

    metadata = {"render_modes": [], "render_fps": 4}

    def __init__(
        self,
        boards: Optional[str] = None,
        board_file: Optional[str] = None,
        *,
        board_set: Optional[str] = None,
        random: Optional[tuple[int, int, int]] = None,
        scoring: str = "standard",
        penalty: str = "none",
        max_steps: Optional[int] = None,
    ) -> None:
        given = [x is not None for x in (boards, board_file, board_set, random)]
        if sum(given) > 1:
            raise ValueError("give one of boards, board_file, board_set and random")
        if random is not None:
            self._core = SameGameCore(random=(int(random[0]), int(random[1]), int(random[2])), scoring=scoring, penalty=penalty)
            colours = int(random[2])
        else:
            if board_file is not None:
                text, source = _read(board_file), os.fspath(board_file)
            elif boards is not None:
                text, source = boards, "boards"
            else:
                source = board_set or "standard20"
                text = bundled_text("samegame", source)
            self._core = SameGameCore(text=text, source=source, scoring=scoring, penalty=penalty)
            colours = 0
            for i in range(self._core.board_count or 0):
                self._core.reset(i, 0)
                colours = max(colours, int(self._core.observation().max()))
        height, width = self._core.shape
        self.width = width
        self.max_steps = int(max_steps) if max_steps is not None else height * width
        self.observation_space = spaces.Box(0, max(colours, 1), (height, width), np.uint8)
        self.action_space = spaces.Discrete(height * width)
        self._steps = 0
        self._started = False

    def _info(self, legal: bool = True) -> dict[str, Any]:
        return {
            "action_mask": self._core.action_mask(),
            "points": self._core.points,
            "stones": self._core.stones,
            "legal": legal,
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        """Start a board drawn with ``np_random`` (``options={"board": i}`` picks board ``i``)."""
        super().reset(seed=seed)
        count = self._core.board_count
        if options and "board" in options:
            index = int(options["board"])
        else:
            index = int(self.np_random.integers(count)) if count else 0
        self._core.reset(index, int(self.np_random.integers(2**63)))
        self._steps = 0
        self._started = True
        return self._core.observation(), self._info()

    def step(self, action: int):
        """Click cell ``action``; see the class documentation."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        points, legal, ended, adjustment = self._core.step(int(action))
        self._steps += 1
        truncated = not ended and self._steps >= self.max_steps
        return self._core.observation(), float(points + adjustment), ended, truncated, self._info(legal)

    def solve(self, **options: Any) -> list[int]:
        """The oracle: the clicks of the ``samegame_solve`` job's best game from the current
        position, replayed by the job; ``options`` are the job's (``time_limit``, ``algo`` …),
        with its defaults."""
        if not self._started:
            raise RuntimeError("call reset() before solve()")
        for event in run("samegame_solve", text=self._core.text(), **options):
            if event["kind"] == "result":
                return [m["row"] * self.width + m["col"] for m in event["moves"]]
        return []


class SudokuEnv(gym.Env):
    """Sudoku: fill the empty cells so that every row, column and box holds each value once.

    **Puzzles** (one of): ``puzzle_set`` (default ``"top95"``; also ``"hardest11"``,
    ``"easy"``, ``"medium"``, ``"hard"``), ``puzzles`` (text: one puzzle per line or grids),
    ``puzzle_file``, or ``generate=n`` (``n`` puzzles made by the ``sudoku_generate`` job
    with seeds from ``generate_seed``). A reset draws a puzzle with ``np_random``;
    ``options={"puzzle": i}`` picks puzzle ``i``.

    **Observation**: ``Box(0, side, (side, side), uint8)`` values, 0 empty. **Actions**:
    ``Discrete(side³)``, ``cell * side + value − 1`` (cells row-major), as jumanji's Sudoku;
    ``info["action_mask"]`` marks the legal ones: an empty cell and a value none of its peers
    holds. **Rewards and ends** as jumanji's: reward 1 and ``terminated`` when the grid is
    solved; ``terminated`` with reward 0 on an illegal action (nothing is written) or when no
    legal action is left. Episodes end within ``side²`` steps, so nothing is truncated.
    """

    metadata = {"render_modes": [], "render_fps": 4}

    def __init__(
        self,
        puzzles: Optional[str] = None,
        puzzle_file: Optional[str] = None,
        *,
        puzzle_set: Optional[str] = None,
        generate: Optional[int] = None,
        generate_seed: int = 0,
    ) -> None:
        given = [x is not None for x in (puzzles, puzzle_file, puzzle_set, generate)]
        if sum(given) > 1:
            raise ValueError("give one of puzzles, puzzle_file, puzzle_set and generate")
        if generate is not None:
            lines = [
                event["puzzle"]
                for event in run("sudoku_generate", count=int(generate), seed=int(generate_seed))
                if event["kind"] == "result"
            ]
            text, source = "\n".join(lines) + "\n", "sudoku_generate"
        elif puzzle_file is not None:
            text, source = _read(puzzle_file), os.fspath(puzzle_file)
        elif puzzles is not None:
            text, source = puzzles, "puzzles"
        else:
            source = puzzle_set or "top95"
            text = bundled_text("sudoku", source)
        self._core = SudokuCore(text, source)
        side = self._core.side
        self.side = side
        self.observation_space = spaces.Box(0, side, (side, side), np.uint8)
        self.action_space = spaces.Discrete(side**3)
        self._started = False

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        """Start a puzzle drawn with ``np_random`` (``options={"puzzle": i}`` picks puzzle ``i``)."""
        super().reset(seed=seed)
        if options and "puzzle" in options:
            index = int(options["puzzle"])
        else:
            index = int(self.np_random.integers(self._core.puzzle_count))
        self._core.reset(index)
        self._started = True
        return self._core.observation(), {"action_mask": self._core.action_mask(), "puzzle": index}

    def step(self, action: int):
        """Write a value; see the class documentation."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        legal, solved, stuck = self._core.step(int(action))
        terminated = solved or stuck or not legal
        info = {"action_mask": self._core.action_mask(), "legal": legal, "solved": solved}
        return self._core.observation(), 1.0 if solved else 0.0, terminated, False, info

    def solve(self) -> Optional[list[int]]:
        """The oracle: actions that fill the grid from the current position, from the
        ``sudoku_solve`` job's exact solver (checked by the job), or ``None`` when the position
        has no solution."""
        if not self._started:
            raise RuntimeError("call reset() before solve()")
        line = self._core.line()
        for event in run("sudoku_solve", puzzles=line, algo="exact"):
            if event["kind"] == "result":
                if not event["solved"]:
                    return None
                solution = event["solution"]
                return [
                    cell * self.side + int(solution[cell], 36) - 1
                    for cell, mark in enumerate(line)
                    if mark in ".0"
                ]
        return None


class BaitEnv(gym.Env):
    """GVGAI's Bait: reach the door with the key, pushing boxes into holes to cross them.

    **Level**: ``level`` 0–4 (GVGAI's five; default 0) or ``text`` (a level in GVGAI's
    characters). **Observation**: ``Box(0, 9, (H, W), uint8)`` codes 0 floor, 1 wall, 2 hole,
    3 box, 4 key, 5 door, 6 mushroom, 7 avatar, 8 avatar with the key, 9 box on a key or door.
    **Actions**: ``Discrete(5)`` in GVGAI's order: 0 up, 1 down, 2 left, 3 right, 4 nil.
    **Rewards**: GVGAI's score change of each tick (a mushroom +1, a box into a hole +1, the
    key +1, the win +1 …, by the game's rules). ``terminated`` on a win or a fall into a hole;
    ``truncated`` at GVGAI's 2000-tick limit. ``info``: ``points``, ``status``
    (``"playing"``, ``"won"``, ``"dead"``, ``"timeout"``), ``tick``.
    """

    metadata = {"render_modes": [], "render_fps": 4}

    def __init__(self, level: Optional[int] = None, text: Optional[str] = None) -> None:
        if text is not None and level is not None:
            raise ValueError("give level or text, not both")
        self._core = BaitCore(text=text) if text is not None else BaitCore(level=0 if level is None else int(level))
        height, width = self._core.shape
        self.observation_space = spaces.Box(0, 9, (height, width), np.uint8)
        self.action_space = spaces.Discrete(5)
        self._status: Optional[str] = None

    def _info(self) -> dict[str, Any]:
        return {"points": self._core.points, "status": self._status, "tick": self._core.tick}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        """Back to the level's start (Bait has no randomness)."""
        super().reset(seed=seed)
        self._core.reset()
        self._status = "playing"
        return self._core.observation(), self._info()

    def step(self, action: int):
        """One tick; see the class documentation."""
        if self._status is None:
            raise RuntimeError("call reset() before step()")
        points, self._status = self._core.step(int(action))
        terminated = self._status in ("won", "dead")
        truncated = self._status == "timeout"
        return self._core.observation(), float(points), terminated, truncated, self._info()

    def solve(self, max_nodes: int = 2_000_000) -> Optional[list[int]]:
        """The oracle: a win from the current position by the offline A* planner (shortest when
        it fits in a million positions), replayed before it is returned; ``None`` if none is
        found within ``max_nodes``."""
        if self._status is None:
            raise RuntimeError("call reset() before solve()")
        return self._core.solve(max_nodes)
