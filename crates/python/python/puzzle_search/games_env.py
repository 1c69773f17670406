"""SameGame, Sudoku and Bait as Gymnasium environments, on the games' Rust rules, with action
masks in ``info["action_mask"]`` (as Gymnasium's Taxi and jumanji's environments) and the
solvers as oracles (``env.unwrapped.solve()``).
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._puzzle_search import (
    BaitBatch,
    BaitCore,
    SameGameBatch,
    SameGameCore,
    SudokuBatch,
    SudokuCore,
    bundled_text,
    run,
)
from ._vector import stream_seed, stream_seeds


def _read(path: os.PathLike | str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _seed_stream(env: Any, seed: Optional[int]) -> None:
    """Seed the core's reset stream from ``np_random`` at a seeded or first reset (as
    ``SokobanEnv`` seeds its level stream); the vector environments seed each sub-environment's
    stream alike."""
    if seed is not None or not getattr(env, "_seeded", False):
        env._core.seed(stream_seed(env.np_random))
        env._seeded = True


class SameGameEnv(gym.Env):
    """SameGame (Clickomania): click a group of two or more stones of one colour to remove it.

    **Boards** (one of): ``board_set`` (default ``"standard20"``, the 20 standard 15×15 boards
    with 5 colours), ``boards`` (text in any of the board formats: standard, digits, CSV),
    ``board_file``, or ``random=(width, height, colours)`` (a fresh random board every reset).
    A reset draws a board of the list, or a random board's seed, from a stream seeded by
    ``np_random`` (so ``reset(seed=…)`` reproduces the boards that follow);
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
            self._core = SameGameCore(
                random=(int(random[0]), int(random[1]), int(random[2])),
                scoring=scoring,
                penalty=penalty,
                max_steps=None if max_steps is None else int(max_steps),
            )
            colours = int(random[2])
        else:
            if board_file is not None:
                text, source = _read(board_file), os.fspath(board_file)
            elif boards is not None:
                text, source = boards, "boards"
            else:
                source = board_set or "standard20"
                text = bundled_text("samegame", source)
            self._core = SameGameCore(
                text=text,
                source=source,
                scoring=scoring,
                penalty=penalty,
                max_steps=None if max_steps is None else int(max_steps),
            )
            colours = 0
            for i in range(self._core.board_count or 0):
                self._core.reset(i)
                colours = max(colours, int(self._core.observation().max()))
        height, width = self._core.shape
        self.width = width
        self.max_steps = self._core.max_steps
        self.observation_space = spaces.Box(0, max(colours, 1), (height, width), np.uint8)
        self.action_space = spaces.Discrete(height * width)
        self._started = False

    def _info(self, legal: bool = True) -> dict[str, Any]:
        return {
            "action_mask": self._core.action_mask(),
            "points": self._core.points,
            "stones": self._core.stones,
            "legal": legal,
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None):
        """Start a board drawn from the stream (``options={"board": i}`` picks board ``i``)."""
        super().reset(seed=seed)
        _seed_stream(self, seed)
        chosen = int(options["board"]) if options and "board" in options else None
        self._core.reset(chosen)
        self._started = True
        return self._core.observation(), self._info()

    def step(self, action: int):
        """Click cell ``action``; see the class documentation."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        reward, legal, terminated, truncated = self._core.step(int(action))
        return self._core.observation(), reward, terminated, truncated, self._info(legal)

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
    with seeds from ``generate_seed``). A reset draws a puzzle from a stream seeded by
    ``np_random``; ``options={"puzzle": i}`` picks puzzle ``i``.

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
        """Start a puzzle drawn from the stream (``options={"puzzle": i}`` picks puzzle ``i``)."""
        super().reset(seed=seed)
        _seed_stream(self, seed)
        chosen = int(options["puzzle"]) if options and "puzzle" in options else None
        index = self._core.reset(chosen)
        self._started = True
        return self._core.observation(), {"action_mask": self._core.action_mask(), "puzzle": index}

    def step(self, action: int):
        """Write a value; see the class documentation."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        reward, legal, terminated, truncated = self._core.step(int(action))
        info = {"action_mask": self._core.action_mask(), "legal": legal, "solved": reward > 0}
        return self._core.observation(), reward, terminated, truncated, info

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
    door opened with the key +5; taking the key scores nothing). ``terminated`` on a win or a fall into a hole;
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
        reward, _, terminated, truncated = self._core.step(int(action))
        self._status = self._core.status
        return self._core.observation(), reward, terminated, truncated, self._info()

    def solve(self, max_nodes: int = 2_000_000) -> Optional[list[int]]:
        """The oracle: a win from the current position by the offline A* planner (shortest when
        it fits in a million positions), replayed before it is returned; ``None`` if none is
        found within ``max_nodes``."""
        if self._status is None:
            raise RuntimeError("call reset() before solve()")
        return self._core.solve(max_nodes)


class _GameVectorEnv(VectorEnv):
    """``num_envs`` episodes of one game stepped per call in Rust (Gymnasium's ``VectorEnv``).

    Behaves as ``num_envs`` single environments in a ``gymnasium.vector.SyncVectorEnv`` would,
    step for step: sub-environment ``i`` reset with seed ``seed + i`` plays what the single
    environment reset with that seed plays (each sub-environment draws its resets from its own
    ``np_random``, as the single one does). Auto-reset is Gymnasium's default ``NEXT_STEP``:
    the step after an episode ends resets it (reward 0, neither terminated nor truncated).
    ``infos["action_mask"]`` holds the ``(num_envs, actions)`` masks, as ``SyncVectorEnv``
    gathers the single environments' masks. ``threads`` > 1 splits each call across that many
    of rayon's threads (default: all cores). With ``copy=False`` the returned arrays are the
    environment's own buffers, overwritten by the next call (as Gymnasium's ``copy`` option).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, single: Any, batch_type: Any, threads: Optional[int], copy: bool) -> None:
        self.num_envs = int(num_envs)
        if self.num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self._single = single
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.copy = bool(copy)
        threads = (os.cpu_count() or 1) if threads is None else int(threads)
        self._batch = batch_type(single._core, self.num_envs, threads)
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminations = np.zeros(self.num_envs, dtype=bool)
        self._truncations = np.zeros(self.num_envs, dtype=bool)
        self._started = False

    def _out(self, observations: np.ndarray) -> np.ndarray:
        return observations.copy() if self.copy else observations

    def _infos(self) -> dict[str, Any]:
        masks = self._batch.masks()
        return {"action_mask": masks.copy() if self.copy else masks}

    def reset(
        self, *, seed: Optional[Union[int, Sequence[Optional[int]]]] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-environment: ``seed`` an int (sub-environment ``i`` gets ``seed + i``),
        a list of seeds, or ``None`` (fresh entropy)."""
        observations = self._batch.reset(stream_seeds(seed, self.num_envs))
        self._terminations[:] = False
        self._truncations[:] = False
        self._started = True
        return self._out(observations), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-environment (``actions``: ``num_envs`` integers)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)
        observations = self._batch.step(
            actions,
            self._rewards,
            self._terminations,
            self._truncations,
        )
        if self.copy:
            return (
                observations.copy(),
                self._rewards.copy(),
                self._terminations.copy(),
                self._truncations.copy(),
                self._infos(),
            )
        return observations, self._rewards, self._terminations, self._truncations, self._infos()


class SameGameVectorEnv(_GameVectorEnv):
    """``num_envs`` :class:`SameGameEnv` episodes stepped per call in Rust; takes
    :class:`SameGameEnv`'s arguments (see ``_GameVectorEnv`` for the vector behaviour)."""

    def __init__(self, num_envs: int, *, threads: Optional[int] = None, copy: bool = True, **options: Any) -> None:
        super().__init__(num_envs, SameGameEnv(**options), SameGameBatch, threads, copy)


class SudokuVectorEnv(_GameVectorEnv):
    """``num_envs`` :class:`SudokuEnv` episodes stepped per call in Rust; takes
    :class:`SudokuEnv`'s arguments (see ``_GameVectorEnv`` for the vector behaviour)."""

    def __init__(self, num_envs: int, *, threads: Optional[int] = None, copy: bool = True, **options: Any) -> None:
        super().__init__(num_envs, SudokuEnv(**options), SudokuBatch, threads, copy)


class BaitVectorEnv(_GameVectorEnv):
    """``num_envs`` :class:`BaitEnv` episodes stepped per call in Rust; takes :class:`BaitEnv`'s
    arguments (see ``_GameVectorEnv`` for the vector behaviour). Every action is legal, so the
    masks are all ones."""

    def __init__(self, num_envs: int, *, threads: Optional[int] = None, copy: bool = True, **options: Any) -> None:
        super().__init__(num_envs, BaitEnv(**options), BaitBatch, threads, copy)
