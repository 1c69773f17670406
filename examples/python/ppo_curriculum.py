#!/usr/bin/env python3
"""Train Stable-Baselines3's PPO on Sokoban through a curriculum of generated levels, ordered by
their proven optimal push counts, and show the solved rate against difficulty.

    pip install ./crates/python stable-baselines3 matplotlib
    python examples/python/ppo_curriculum.py --out ppo-curriculum.png

Not run in CI: Stable-Baselines3 needs PyTorch (several GB with its CUDA libraries from PyPI).

1. ``generate_levels`` makes 8×8 levels (6×6 interiors) with 2 boxes; each comes with its optimal
   push count, proven by the generator's exhaustive backward search. Training levels and test
   levels come from different generator seeds, and a test level that is also a training level
   is dropped.
2. PPO (a small convolutional network over the four observation planes) trains stage by stage
   on the levels of at most 1–2, 3–4, 5–6, 7–8 and 9–12 pushes (each stage keeps the easier
   levels in its pool), moving on after ``--steps`` steps per stage.
3. The trained policy (sampling its actions, as it trained) plays every test level once, up to
   120 steps; the script prints the solved rate per optimal push count beside a uniformly
   random policy's and plots both.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from puzzle_search.envs import SokobanEnv, generate_levels

STAGES = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 12)]
GENERATE = {"width": 6, "height": 6, "iterations": 3000}


def levels_by_pushes(seed: int, runs: int) -> dict[int, list]:
    """Generated 8×8 two-box levels, by optimal push count (1–12)."""
    levels, optimal = generate_levels(
        runs, generate={**GENERATE, "seed": seed}, boxes=2, min_pushes=1, max_pushes=12, max_size=(8, 8)
    )
    by_pushes: dict[int, list] = collections.defaultdict(list)
    for level, (pushes, _) in zip(levels, optimal):
        by_pushes[pushes].append(level)
    return by_pushes


def conv_extractor():
    """SB3's ``features_extractor_class``: three 3×3 convolutions over the (4, 8, 8) planes (SB3's
    own ``CnnPolicy`` is made for pictures of 36×36 pixels and more)."""
    import torch
    from torch import nn
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class Planes(BaseFeaturesExtractor):
        def __init__(self, observation_space, features_dim: int = 256):
            super().__init__(observation_space, features_dim)
            channels, height, width = observation_space.shape
            self.net = nn.Sequential(
                nn.Conv2d(channels, 32, 3, padding=1), nn.ReLU(),
                nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
                nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(),
                nn.Flatten(), nn.Linear(64 * height * width, features_dim), nn.ReLU(),
            )

        def forward(self, observations: torch.Tensor) -> torch.Tensor:
            return self.net(observations.float())

    return Planes


def solved_rate(levels: list, policy, max_steps: int = 120) -> float:
    """The share of ``levels`` that ``policy(observation) -> action`` solves, one try each."""
    env = SokobanEnv(levels=levels, max_size=(8, 8), max_steps=max_steps)
    solved = 0
    for i in range(len(levels)):
        observation, _ = env.reset(seed=i, options={"level": i})
        while True:
            observation, _, terminated, truncated, _ = env.step(policy(observation))
            if terminated or truncated:
                solved += terminated
                break
    return solved / max(len(levels), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100_000, help="PPO steps per stage (default 100,000)")
    parser.add_argument("--envs", type=int, default=8, help="environments PPO collects from (default 8)")
    parser.add_argument("--test", type=int, default=100, help="test levels per push count, at most (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="PPO's seed (default 0)")
    parser.add_argument("--out", help="write the plot here (PNG); needs matplotlib")
    args = parser.parse_args()

    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    start = time.perf_counter()
    train = levels_by_pushes(seed=0, runs=6)
    train_xsb = {level.xsb for levels in train.values() for level in levels}
    test = {p: [lv for lv in levels if lv.xsb not in train_xsb][: args.test] for p, levels in levels_by_pushes(seed=1000, runs=6).items()}
    print(f"levels: {sum(map(len, train.values())):,} to train on, {sum(map(len, test.values())):,} to test "
          f"({time.perf_counter() - start:.1f} s)")

    model = None
    for lo, hi in STAGES:
        pool = [level for pushes, levels in train.items() if pushes <= hi for level in levels]
        env = make_vec_env(SokobanEnv, n_envs=args.envs, seed=args.seed, env_kwargs={"levels": pool, "max_size": (8, 8)})
        if model is None:
            model = PPO("MlpPolicy", env, seed=args.seed, n_steps=256, batch_size=512, ent_coef=0.01,
                        policy_kwargs={"features_extractor_class": conv_extractor(), "net_arch": [128]},
                        verbose=0, device="cpu")
        else:
            model.set_env(env)
        model.learn(args.steps, reset_num_timesteps=False)
        rate = solved_rate([lv for p, levels in test.items() if lo <= p <= hi for lv in levels][:200],
                           lambda o: int(model.predict(o)[0]))
        print(f"stage {lo}–{hi} pushes: {len(pool):,} levels in the pool, {model.num_timesteps:,} steps so far, "
              f"test levels of the stage solved {rate:.0%} ({time.perf_counter() - start:.0f} s)")

    rng = np.random.default_rng(0)
    rows = []
    for pushes in sorted(test):
        levels = test[pushes]
        trained = solved_rate(levels, lambda o: int(model.predict(o)[0]))
        random = solved_rate(levels, lambda o: int(rng.integers(4)))
        rows.append((pushes, len(levels), trained, random))
    print(f"\ntrained for {model.num_timesteps:,} steps in {time.perf_counter() - start:.0f} s (wall)\n")
    print("| optimal pushes | test levels | PPO with the curriculum | random policy |")
    print("|---:|---:|---:|---:|")
    for pushes, count, trained, random in rows:
        print(f"| {pushes} | {count} | {trained:.0%} | {random:.0%} |")

    if args.out:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        x = [r[0] for r in rows]
        plt.figure(figsize=(12, 4.5))
        plt.plot(x, [100 * r[2] for r in rows], "o-", label="PPO, trained stage by stage")
        plt.plot(x, [100 * r[3] for r in rows], "s--", label="uniformly random policy")
        plt.xlabel("optimal pushes of the test level (proven by the generator)")
        plt.ylabel("test levels solved (%)")
        plt.title(f"PPO (Stable-Baselines3) on generated 8×8 Sokoban levels, {model.num_timesteps:,} steps")
        plt.ylim(0, 100)
        plt.xticks(x)
        plt.grid(alpha=0.3)
        plt.legend()
        plt.tight_layout()
        plt.savefig(args.out, dpi=100)
        print(f"\nplot: {args.out}")


if __name__ == "__main__":
    main()
