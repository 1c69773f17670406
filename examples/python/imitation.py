"""Imitating the solver: behavioural cloning of push-optimal solutions on generated levels.

Every generated level comes with a push-optimal solution (``info["optimal_solution"]``); this
example replays those solutions to collect (observation, action) pairs on training levels,
fits a softmax policy on a window around the player with plain numpy, and compares it with a
random agent on levels it has not seen.

    python examples/python/imitation.py [--runs 2] [--epochs 300]
"""

from __future__ import annotations

import argparse

import numpy as np

from puzzle_search.envs import LURD_ACTIONS, SokobanEnv

RADIUS = 3  # the policy sees a 7×7 window of walls, goals and boxes around the player


def features(observation: np.ndarray) -> np.ndarray:
    """The walls, goals and boxes planes in a window centred on the player, flattened, plus a
    bias (cells off the board read as walls)."""
    planes = observation.astype(np.float32)
    y, x = np.argwhere(planes[3] == 1)[0]
    padded = np.pad(planes[:3], ((0, 0), (RADIUS, RADIUS), (RADIUS, RADIUS)), constant_values=0)
    padded[0] = np.pad(planes[0], RADIUS, constant_values=1)
    window = padded[:, y : y + 2 * RADIUS + 1, x : x + 2 * RADIUS + 1]
    return np.append(window.reshape(-1), 1.0)


def demonstrations(env: SokobanEnv, levels: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(features, action) of every step of the levels' push-optimal solutions."""
    xs, ys = [], []
    for index in levels:
        observation, info = env.reset(options={"level": index})
        for letter in info["optimal_solution"]:
            action = LURD_ACTIONS[letter.lower()]
            xs.append(features(observation))
            ys.append(action)
            observation, *_ = env.step(action)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, epochs: int, rate: float = 0.5) -> np.ndarray:
    """Softmax regression by full-batch gradient descent."""
    weights = np.zeros((x.shape[1], 4), dtype=np.float32)
    targets = np.eye(4, dtype=np.float32)[y]
    for _ in range(epochs):
        logits = x @ weights
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        weights -= rate * x.T @ (p - targets) / len(x)
    return weights


def solve_rate(env: SokobanEnv, levels: list[int], policy, rng: np.random.Generator) -> float:
    solved = 0
    for index in levels:
        observation, _ = env.reset(options={"level": index})
        while True:
            observation, _, terminated, truncated, _ = env.step(policy(observation, rng))
            if terminated or truncated:
                solved += terminated
                break
    return solved / len(levels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2, help="generator runs making the level pool")
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = SokobanEnv(batch=args.runs, min_pushes=2, max_pushes=8, max_steps=60)
    env.reset(seed=args.seed)
    count = len(env.levels)
    order = np.random.default_rng(args.seed).permutation(count)
    train, test = [int(i) for i in order[: count * 4 // 5]], [int(i) for i in order[count * 4 // 5 :]]
    x, y = demonstrations(env, train)
    weights = fit(x, y, args.epochs)
    accuracy = float(((x @ weights).argmax(axis=1) == y).mean())
    print(f"{count} levels (2–8 optimal pushes): {len(train)} to learn from ({len(x)} steps), {len(test)} to test")
    print(f"training accuracy of the cloned policy: {accuracy:.1%}")

    def cloned(observation, rng):
        logits = features(observation) @ weights
        p = np.exp(logits - logits.max())
        return int(rng.choice(4, p=p / p.sum()))

    def random(observation, rng):
        return int(rng.integers(4))

    rng = np.random.default_rng(args.seed)
    print(f"solved within 60 steps on unseen levels: cloned policy {solve_rate(env, test, cloned, rng):.1%}, "
          f"random {solve_rate(env, test, random, rng):.1%}")


if __name__ == "__main__":
    main()
