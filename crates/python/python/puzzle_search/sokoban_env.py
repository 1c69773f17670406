"""Sokoban as Gymnasium environments: one episode (:class:`SokobanEnv`) or many stepped per call
in Rust (:class:`SokobanVectorEnv`), over levels generated with a known optimal push count, read
from XSB, or bundled.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._puzzle_search import SOKOBAN_RGB_PIXELS, Level, SokobanBatch, SokobanCore, parse_xsb, run, sokoban_set
from ._vector import stream_seed, stream_seeds

#: The generator's options used when no levels are given (``generate=`` overrides them):
#: 7×7 interiors (9×9 levels with their walls), generation aimed at optimal pushes (each
#: level's push count proven by the generator's backward search, its solution push-optimal),
#: 2,000 MCTS iterations per run on one thread.
DEFAULT_GENERATE: dict[str, Any] = {
    "width": 7,
    "height": 7,
    "iterations": 2000,
    "threads": 1,
    "objective": "pushes",
}

#: Pixels per cell of ``render()`` and of the ``"rgb"`` observation layout.
CELL_PIXELS = SOKOBAN_RGB_PIXELS

#: The action of each LURD letter (pushes are upper case) in the 4-action space.
LURD_ACTIONS = {"u": 0, "d": 1, "l": 2, "r": 3}

#: The cell flags of the ``"cells"`` observation layout.
WALL, GOAL, BOX, PLAYER = 1, 2, 4, 8


def solve_optimally(level: Level, time_limit: float = 30.0) -> tuple[Optional[int], str]:
    """The optimal push count of ``level`` and a push-optimal LURD solution (the
    ``sokoban_solve`` job's A* over pushes), or ``(None, "")`` when none is found in time."""
    return solve_all_optimally([level], time_limit)[0]


def solve_all_optimally(levels: Sequence[Level], time_limit: float = 30.0) -> list[tuple[Optional[int], str]]:
    """:func:`solve_optimally` for many levels in one ``sokoban_solve`` job (``time_limit`` per
    level), which saves a job's start-up per level."""
    if not levels:
        return []
    answers: list[tuple[Optional[int], str]] = [(None, "")] * len(levels)
    text = "\n".join(level.xsb for level in levels)
    for event in run("sokoban_solve", xsb=text, algo="astar", time_limit=time_limit):
        if event["kind"] == "result" and event["solved"]:
            answers[int(event["level"]) - 1] = (int(event["pushes"]), str(event["solution"]))
    return answers


def generate_levels(
    count: int = 4,
    *,
    generate: Optional[dict[str, Any]] = None,
    boxes: Optional[int] = None,
    min_pushes: int = 0,
    max_pushes: Optional[int] = None,
    max_size: tuple[int, int] = (10, 10),
) -> tuple[list[Level], list[tuple[int, str]]]:
    """Levels of known difficulty: every level kept by ``count`` runs of the
    ``sokoban_generate`` job (options ``DEFAULT_GENERATE`` updated by ``generate``; run ``k``
    uses seed ``generate["seed"] + k``, default 0 + k) that fits ``max_size`` (rows, columns).
    With the default objective (``"pushes"``) the generator itself is asked for ``boxes`` boxes
    (default 4) and ``min_pushes`` to ``max_pushes`` optimal pushes: it steers toward that band
    and proves each level's push count, so nothing is solved again or thrown away. With
    ``generate={"objective": "score"}`` (the thesis's score) the levels are solved by A* and
    those outside the band are dropped. Returns the levels and, per level,
    ``(optimal_pushes, push_optimal_lurd)``; a level made twice is kept once."""
    options = {**DEFAULT_GENERATE, **(generate or {})}
    aimed = options.get("objective", "pushes") == "pushes"
    if aimed:
        if boxes is not None:
            options["boxes"] = int(boxes)
        if min_pushes > 0:
            options["min_pushes"] = int(min_pushes)
        if max_pushes is not None:
            options["max_pushes"] = int(max_pushes)
    elif boxes is not None:
        options.setdefault("box_limit", str(boxes))
    first = int(options.get("seed") or 0)
    levels: list[Level] = []
    optimal: list[tuple[int, str]] = []
    seen: set[str] = set()
    for seed in range(first, first + count):
        candidates: list[Level] = []
        proven: list[tuple[Optional[int], str]] = []
        for event in run("sokoban_generate", **{**options, "seed": seed}):
            if event["kind"] != "result" or "xsb" not in event:
                continue
            level = parse_xsb(event["xsb"], source="sokoban_generate")[0]
            if level.height > max_size[0] or level.width > max_size[1]:
                continue
            if (boxes is not None and level.box_count != boxes) or level.xsb in seen:
                continue
            seen.add(level.xsb)
            candidates.append(level)
            if aimed:
                proven.append((int(event["optimal_pushes"]), str(event["solution"])))
        if not aimed:
            proven = solve_all_optimally(candidates)
        for level, (pushes, solution) in zip(candidates, proven):
            if pushes is None or pushes < min_pushes:
                continue
            if max_pushes is not None and pushes > max_pushes:
                continue
            levels.append(level)
            optimal.append((pushes, solution))
    return levels, optimal


def _given_levels(
    levels: Optional[Sequence[Union[str, Level]]], xsb_file: Optional[str], level_set: Optional[str]
) -> Optional[list[Level]]:
    """The levels given as objects or XSB texts, an XSB file or a directory of them (e.g.
    Boxoban's text files), or a bundled set's id (``sokoban_sets()``)."""
    if sum(x is not None for x in (levels, xsb_file, level_set)) > 1:
        raise ValueError("give one of levels, xsb_file and level_set")
    if level_set is not None:
        return sokoban_set(level_set)
    if xsb_file is not None:
        path = os.fspath(xsb_file)
        files = (
            [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith((".xsb", ".txt", ".sok"))]
            if os.path.isdir(path)
            else [path]
        )
        found: list[Level] = []
        for name in files:
            with open(name, encoding="utf-8") as f:
                found.extend(parse_xsb(f.read(), source=name))
        if not found:
            raise ValueError(f"{path}: no levels")
        return found
    if levels is not None:
        found = []
        for item in levels:
            found.extend([item] if isinstance(item, Level) else parse_xsb(item))
        if not found:
            raise ValueError("levels is empty")
        return found
    return None


class _LevelPool:
    """The levels an environment draws from, generated at the first reset when none are given."""

    def __init__(self, levels, xsb_file, level_set, generate, batch, boxes, min_pushes, max_pushes, max_size):
        self.levels = _given_levels(levels, xsb_file, level_set)
        self.generate = dict(generate or {})
        if max_size is None:
            if self.levels is not None:
                max_size = (max(lv.height for lv in self.levels), max(lv.width for lv in self.levels))
            else:
                options = {**DEFAULT_GENERATE, **self.generate}
                max_size = (int(options["height"]) + 2, int(options["width"]) + 2)
        self.max_size = (int(max_size[0]), int(max_size[1]))
        self.optimal: list[Optional[tuple[int, str]]] = []
        if self.levels is not None:
            for level in self.levels:
                if level.height > self.max_size[0] or level.width > self.max_size[1]:
                    raise ValueError(
                        f"a {level.width}×{level.height} level does not fit max_size "
                        f"{self.max_size[0]}×{self.max_size[1]} (rows × columns)"
                    )
            self.optimal = [None] * len(self.levels)
        self.batch = int(batch)
        if self.batch < 1:
            raise ValueError("batch must be at least 1")
        self.boxes = None if boxes is None else int(boxes)
        self.min_pushes = int(min_pushes)
        self.max_pushes = None if max_pushes is None else int(max_pushes)
        if self.max_pushes is not None and self.max_pushes < self.min_pushes:
            raise ValueError("max_pushes is below min_pushes")

    def get(self) -> list[Level]:
        if self.levels is None:
            levels, optimal = generate_levels(
                self.batch,
                generate=self.generate,
                boxes=self.boxes,
                min_pushes=self.min_pushes,
                max_pushes=self.max_pushes,
                max_size=self.max_size,
            )
            if not levels:
                raise RuntimeError(
                    f"sokoban_generate made no level that fits max_size {self.max_size} with "
                    f"{self.min_pushes} to {self.max_pushes} optimal pushes"
                    + ("" if self.boxes is None else f" and {self.boxes} boxes")
                    + ": generate more (batch=, generate={...}) or widen the range"
                )
            self.levels, self.optimal = levels, list(optimal)
        return self.levels


def _spaces(max_size: tuple[int, int], observation: str, actions: int):
    height, width = max_size
    if observation == "planes":
        obs = spaces.Box(0, 1, (4, height, width), np.uint8)
    elif observation == "cells":
        obs = spaces.Box(0, WALL | GOAL | BOX | PLAYER, (height, width), np.uint8)
    elif observation == "rgb":
        obs = spaces.Box(0, 255, (height * CELL_PIXELS, width * CELL_PIXELS, 3), np.uint8)
    elif observation == "tiny_rgb":
        obs = spaces.Box(0, 255, (height, width, 3), np.uint8)
    else:
        raise ValueError(f'observation {observation!r} is not "planes", "cells", "rgb" or "tiny_rgb"')
    if actions not in (4, 8):
        raise ValueError(f"actions must be 4 or 8, not {actions}")
    return obs, spaces.Discrete(actions)


class SokobanEnv(gym.Env):
    """Sokoban as a Gymnasium environment, stepped by puzzle-search's rules in Rust.

    **Levels** (one of): ``levels`` (XSB texts or :class:`Level` objects; a text may hold several
    levels); ``xsb_file`` (an XSB file, or a directory of them such as Boxoban's text files);
    ``level_set`` (a bundled set's id, ``"microban"``, ``"xsokoban"``, …: ``sokoban_sets()``;
    ``max_size`` must fit them); by default levels **generated** by the
    ``sokoban_generate`` job (:func:`generate_levels`: ``batch`` runs, options
    ``DEFAULT_GENERATE`` updated by ``generate``, made at the first reset): ``boxes``,
    ``min_pushes`` (default 1: no level solved from the start) and ``max_pushes`` choose the
    difficulty, which the generator aims at and proves (each level's optimal push count comes
    from its exhaustive backward search, not from filtering), and ``info`` carries ``optimal_pushes`` and a push-optimal ``optimal_solution`` (LURD).
    Each reset draws a level from a stream seeded by ``np_random``, so ``reset(seed=…)``
    reproduces the level and the state exactly; ``options={"level": i}`` picks level ``i``.

    **Observation** (``max_size`` = (rows, columns); by default the largest given level, or
    the generated levels' size, 9×9 with ``DEFAULT_GENERATE``; the level in the top-left
    corner, zeros around it): ``observation="planes"`` (default) ``Box(0, 1, (4, H, W),
    uint8)`` walls, goals, boxes, player; ``"cells"`` ``Box(0, 15, (H, W), uint8)`` with flags
    1 wall, 2 goal, 4 box, 8 player; ``"rgb"`` the picture of ``render()``, ``(H*8, W*8, 3)``;
    ``"tiny_rgb"`` one pixel per cell, ``(H, W, 3)`` (gym-sokoban's image observations).
    **Actions**: ``actions=4`` (default) 0 up, 1 down, 2 left,
    3 right, a step into a box pushes it; ``actions=8`` is gym-sokoban's push/move split without
    its no-op: 0–3 push (or move) up, down, left, right, 4–7 move only (never push).

    **Rewards** as gym-sokoban: ``reward_step`` (−0.1) every step, ``reward_box_on_goal`` (+1)
    for a box pushed onto a goal, ``reward_box_off_goal`` (−1) for one pushed off,
    ``reward_solved`` (+10) when every box is on a goal. ``terminated`` when solved,
    ``truncated`` after ``max_steps`` (120) steps. ``info``: ``boxes_on_goals``, ``deadlock``
    (the position can no longer be solved, by the solver's own deadlock tables), ``level``
    (index in the pool), ``level_title``.

    ``render_mode="rgb_array"``: an ``(H*8, W*8, 3)`` ``uint8`` picture.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        levels: Optional[Sequence[Union[str, Level]]] = None,
        xsb_file: Optional[str] = None,
        *,
        level_set: Optional[str] = None,
        max_size: Optional[tuple[int, int]] = None,
        max_steps: int = 120,
        observation: str = "planes",
        actions: int = 4,
        generate: Optional[dict[str, Any]] = None,
        batch: int = 1,
        boxes: Optional[int] = None,
        min_pushes: int = 1,
        max_pushes: Optional[int] = None,
        reward_step: float = -0.1,
        reward_box_on_goal: float = 1.0,
        reward_box_off_goal: float = -1.0,
        reward_solved: float = 10.0,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._pool = _LevelPool(levels, xsb_file, level_set, generate, batch, boxes, min_pushes, max_pushes, max_size)
        self.max_size = self._pool.max_size
        self.max_steps = int(max_steps)
        self._layout = observation
        self._actions = int(actions)
        self._rewards = (float(reward_step), float(reward_box_on_goal), float(reward_box_off_goal), float(reward_solved))
        self.observation_space, self.action_space = _spaces(self.max_size, observation, self._actions)
        self._core: Optional[SokobanCore] = None
        self._seeded = False

    @property
    def levels(self) -> list[Level]:
        """The pool of levels (generated on first use when none were given)."""
        return self._pool.get()

    def _info(self) -> dict[str, Any]:
        assert self._core is not None
        index = self._core.level
        info: dict[str, Any] = {
            "boxes_on_goals": self._core.boxes_on_goals,
            "deadlock": self._core.deadlocked,
            "level": index,
            "level_title": self._pool.levels[index].title,
        }
        optimal = self._pool.optimal[index]
        if optimal is not None:
            info["optimal_pushes"], info["optimal_solution"] = optimal
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a level drawn from the seeded stream (``options={"level": i}`` picks level ``i``)."""
        super().reset(seed=seed)
        if self._core is None:
            self._core = SokobanCore(
                self._pool.get(), self.max_size, self._layout, self.max_steps, self._actions, self._rewards
            )
        if seed is not None or not self._seeded:
            self._core.seed(stream_seed(self.np_random))
            self._seeded = True
        level = None if not options or "level" not in options else int(options["level"])
        observation, _ = self._core.reset(level)
        return observation, self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one step; see the class documentation for rewards and the end of an episode."""
        if self._core is None:
            raise RuntimeError("call reset() before step()")
        observation, reward, terminated, truncated = self._core.step(int(action))
        return observation, reward, terminated, truncated, self._info()

    def solve(self, **options: Any) -> Optional[list[int]]:
        """The oracle: actions that solve the level from the current position, found by the
        ``sokoban_solve`` job (``algo="astar"`` for the fewest pushes; ``options`` are the job's,
        with its defaults: the greedy portfolio, 10 s), or ``None`` when the solver finds none
        within its budget. The job replayed the
        solution on the rules before returning it; the environment is not changed."""
        if self._core is None:
            raise RuntimeError("call reset() before solve()")
        events = run("sokoban_solve", xsb=self._core.position_xsb(), **options)
        for event in events:
            if event["kind"] == "result":
                if not event["solved"]:
                    return None
                return [LURD_ACTIONS[c.lower()] for c in event["solution"]]
        return None

    def render(self) -> Optional[np.ndarray]:
        """With ``render_mode="rgb_array"``: the padded board, ``CELL_PIXELS`` per cell."""
        if self.render_mode != "rgb_array" or self._core is None:
            return None
        return self._core.rgb()


class SokobanVectorEnv(VectorEnv):
    """``num_envs`` Sokoban episodes stepped per call in Rust (Gymnasium's ``VectorEnv``).

    Takes :class:`SokobanEnv`'s arguments (levels, observation layout, actions, rewards, step
    limit; ``render_mode`` aside) and behaves as ``num_envs`` of them in a
    ``gymnasium.vector.SyncVectorEnv`` would, step for step: sub-environment ``i`` reset with
    seed ``seed + i`` plays what ``SokobanEnv`` reset with that seed plays. Auto-reset is
    Gymnasium's default ``NEXT_STEP``: the step after an episode ends resets it (reward 0,
    neither terminated nor truncated). ``threads`` > 1 splits each call across that many of
    rayon's threads (default: all cores). With ``copy=False`` the returned observations are the
    environment's own buffer, overwritten by the next call (as Gymnasium's ``copy`` option).
    ``infos`` is empty; ``boxes_on_goals()`` and ``level_indices()`` give per-environment state.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        levels: Optional[Sequence[Union[str, Level]]] = None,
        xsb_file: Optional[str] = None,
        *,
        threads: Optional[int] = None,
        copy: bool = True,
        **options: Any,
    ) -> None:
        self.num_envs = int(num_envs)
        if self.num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if options.get("render_mode") is not None:
            raise ValueError("SokobanVectorEnv does not render; use SokobanEnv for pictures")
        # One single environment's settings, read by SokobanEnv itself, so that both take the
        # same arguments the same way.
        self._single = SokobanEnv(levels, xsb_file, **options)
        self._pool = self._single._pool
        self.max_size = self._single.max_size
        self.single_observation_space = self._single.observation_space
        self.single_action_space = self._single.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.copy = bool(copy)
        self._threads = (os.cpu_count() or 1) if threads is None else int(threads)
        self._batch: Optional[SokobanBatch] = None
        self._rewards_out = np.zeros(self.num_envs, dtype=np.float64)
        self._terminations = np.zeros(self.num_envs, dtype=bool)
        self._truncations = np.zeros(self.num_envs, dtype=bool)

    @property
    def levels(self) -> list[Level]:
        """The pool of levels (generated on first use when none were given)."""
        return self._pool.get()

    def reset(
        self, *, seed: Optional[Union[int, Sequence[Optional[int]]]] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-environment: ``seed`` an int (sub-environment ``i`` gets ``seed + i``),
        a list of seeds, or ``None`` (fresh entropy)."""
        if self._batch is None:
            single = self._single
            self._batch = SokobanBatch(
                self.num_envs,
                self._pool.get(),
                self.max_size,
                single._layout,
                single.max_steps,
                single._actions,
                single._rewards,
                self._threads,
            )
        observations = self._batch.reset(stream_seeds(seed, self.num_envs))
        return (observations.copy() if self.copy else observations), {}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-environment (``actions``: ``num_envs`` integers)."""
        if self._batch is None:
            raise RuntimeError("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs)
        observations = self._batch.step(actions, self._rewards_out, self._terminations, self._truncations)
        if self.copy:
            return (
                observations.copy(),
                self._rewards_out.copy(),
                self._terminations.copy(),
                self._truncations.copy(),
                {},
            )
        return observations, self._rewards_out, self._terminations, self._truncations, {}

    def boxes_on_goals(self) -> np.ndarray:
        """Boxes on goals in each sub-environment."""
        if self._batch is None:
            raise RuntimeError("call reset() first")
        return self._batch.boxes_on_goals()

    def level_indices(self) -> np.ndarray:
        """The pool index of each sub-environment's level."""
        if self._batch is None:
            raise RuntimeError("call reset() first")
        return self._batch.levels()
