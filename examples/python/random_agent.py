"""A random agent on every puzzle_search environment: the Gymnasium loop, with action masks
where the environment gives them.

    python examples/python/random_agent.py [--episodes N] [--seed S]
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import puzzle_search  # noqa: F401  (registers the environments)

ENVIRONMENTS = {
    "puzzle_search/Sokoban-v0": {"max_steps": 120},
    "puzzle_search/SameGame-v0": {},
    "puzzle_search/Sudoku-v0": {"puzzle_set": "easy"},
    "puzzle_search/Bait-v0": {"level": 0},
}


def run_episode(env: gymnasium.Env, rng: np.random.Generator, seed: int) -> tuple[float, int, bool]:
    """One episode of uniformly random (legal, when masked) actions: the return, the steps, and
    whether it terminated (Sokoban and Sudoku solved, SameGame over, Bait won or lost) rather
    than being truncated."""
    _, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = info.get("action_mask")
        if mask is not None and mask.any():
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action = int(rng.integers(env.action_space.n))
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{'environment':28} {'mean return':>12} {'mean steps':>11} {'terminated':>11}")
    for env_id, options in ENVIRONMENTS.items():
        env = gymnasium.make(env_id, **options)
        results = [run_episode(env, rng, args.seed + k) for k in range(args.episodes)]
        returns, steps, solved = zip(*results)
        print(f"{env_id:28} {np.mean(returns):12.2f} {np.mean(steps):11.1f} {sum(solved):>8}/{args.episodes}")


if __name__ == "__main__":
    main()
