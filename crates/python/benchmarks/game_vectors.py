#!/usr/bin/env python3
"""Steps per second of the SameGame, Sudoku and Bait vector environments (Rust) against
Gymnasium's SyncVectorEnv over the single environments, with random actions and auto-resets.

    python crates/python/benchmarks/game_vectors.py --seconds 3 --threads 1

Prints one row per game and batch size: steps per wall second and per CPU second of this
process (the rate to quote on a shared machine).
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


def rate(envs, actions_n: int, seconds: float, num_envs: int) -> tuple[float, float]:
    """Random-action steps per wall second and per CPU second."""
    rng = np.random.default_rng(0)
    envs.reset(seed=0)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        for _ in range(10):
            envs.step(rng.integers(actions_n, size=num_envs))
        steps += 10 * num_envs
    return steps / (time.perf_counter() - wall), steps / max(time.process_time() - cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--threads", type=int, default=1, help="rayon threads of the vector envs")
    parser.add_argument("--batches", default="1,256,4096", help="comma-separated batch sizes")
    args = parser.parse_args()
    print("| game | envs | Rust vector env: steps/s (per CPU-s) | SyncVectorEnv: steps/s (per CPU-s) | ratio per CPU-s |")
    print("|---|---|---|---|---|")
    for name, (single, vector, options) in GAMES.items():
        actions_n = single(**options).action_space.n
        for n in [int(b) for b in args.batches.split(",")]:
            rust = rate(vector(n, threads=args.threads, copy=False, **options), actions_n, args.seconds, n)
            sync_n = min(n, 256)  # Python stepping 4,096 envs takes long: its rate per env is flat
            sync = rate(
                gymnasium.vector.SyncVectorEnv([lambda: single(**options) for _ in range(sync_n)]),
                actions_n,
                args.seconds,
                sync_n,
            )
            print(
                f"| {name} | {n:,} | {rust[0]:,.0f} ({rust[1]:,.0f}) | {sync[0]:,.0f} ({sync[1]:,.0f})"
                f"{'' if sync_n == n else f' at {sync_n}'} | {rust[1] / sync[1]:,.0f}× |"
            )


if __name__ == "__main__":
    main()
