#!/usr/bin/env python3
"""Steps per second of the SameGame, Sudoku and Bait vector environments (Rust) against
Gymnasium's SyncVectorEnv over the single environments, with random legal actions (drawn from
``info["action_mask"]``) and auto-resets.

    python crates/python/benchmarks/game_vectors.py --seconds 3 --threads 2

Prints one row per game and batch size: steps per wall second and per CPU second of this
process (the rate to quote on a shared machine). The clock runs over the environments' ``step``
only: drawing the legal actions from the masks is the agent's work, done between the steps.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import puzzle_search  # noqa: F401  (registers the environments)
from puzzle_search.envs import BaitEnv, BaitVectorEnv, SameGameEnv, SameGameVectorEnv, SudokuEnv, SudokuVectorEnv

GAMES = {
    "SameGame 15x15": (SameGameEnv, SameGameVectorEnv, dict(board_set="standard20")),
    "Sudoku 9x9": (SudokuEnv, SudokuVectorEnv, dict(puzzle_set="top95")),
    "Bait level 1": (BaitEnv, BaitVectorEnv, dict(level=1)),
}


def legal_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per environment (any action where none is legal)."""
    return (rng.random(masks.shape, dtype=np.float32) * (masks + 1e-6)).argmax(axis=1)


def rate(envs, seconds: float, num_envs: int) -> tuple[float, float]:
    """Random-legal-action steps per wall second and per CPU second of ``step``."""
    rng = np.random.default_rng(0)
    _, infos = envs.reset(seed=0)
    steps, wall, cpu = 0, 0.0, 0.0
    while wall < seconds:
        masks = infos.get("action_mask")
        if masks is None:  # Bait's single environment has no mask: every action is legal
            masks = np.ones((num_envs, envs.single_action_space.n), dtype=np.int8)
        actions = legal_actions(rng, masks)
        w, c = time.perf_counter(), time.process_time()
        _, _, _, _, infos = envs.step(actions)
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
        steps += num_envs
    return steps / wall, steps / max(cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--threads", type=int, default=2, help="rayon threads of the vector envs (default 2)")
    parser.add_argument("--batches", default="1,256,4096", help="comma-separated batch sizes")
    args = parser.parse_args()
    print("| game | envs | Rust vector env: steps/s (per CPU-s) | SyncVectorEnv: steps/s (per CPU-s) | ratio per CPU-s |")
    print("|---|---|---|---|---|")
    for name, (single, vector, options) in GAMES.items():
        for n in [int(b) for b in args.batches.split(",")]:
            rust = rate(vector(n, threads=args.threads, copy=False, **options), args.seconds, n)
            sync_n = min(n, 256)  # Python stepping 4,096 envs takes long: its rate per env is flat
            sync = rate(
                gymnasium.vector.SyncVectorEnv([lambda: single(**options) for _ in range(sync_n)]),
                args.seconds,
                sync_n,
            )
            print(
                f"| {name} | {n:,} | {rust[0]:,.0f} ({rust[1]:,.0f}) | {sync[0]:,.0f} ({sync[1]:,.0f})"
                f"{'' if sync_n == n else f' at {sync_n}'} | {rust[1] / sync[1]:,.0f}× |"
            )


if __name__ == "__main__":
    main()
