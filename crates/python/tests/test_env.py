"""The Gymnasium environment puzzle_search/Sokoban-v0."""

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import puzzle_search  # noqa: F401  (registers the environment)
from puzzle_search.envs import SokobanEnv


def test_check_env_passes():
    check_env(gymnasium.make("puzzle_search/Sokoban-v0").unwrapped)


def test_check_env_passes_with_render(small_xsb):
    check_env(gymnasium.make("puzzle_search/Sokoban-v0", levels=[small_xsb], render_mode="rgb_array").unwrapped)


def test_reset_with_a_seed_is_reproducible():
    env = gymnasium.make("puzzle_search/Sokoban-v0")
    first, _ = env.reset(seed=3)
    second, _ = env.reset(seed=3)
    assert np.array_equal(first, second)
    other, _ = gymnasium.make("puzzle_search/Sokoban-v0").reset(seed=3)
    assert np.array_equal(first, other)


def test_random_episode_ends():
    env = gymnasium.make("puzzle_search/Sokoban-v0", max_steps=50, max_size=(10, 10))
    observation, info = env.reset(seed=0)
    assert observation.shape == (4, 10, 10) and observation.dtype == np.uint8
    assert set(info) >= {"boxes_on_goals", "deadlock", "level_title"}
    for step in range(1000):
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(observation)
        if terminated or truncated:
            break
    assert terminated or truncated
    assert step < 50


def test_rewards_and_termination(small_xsb):
    env = SokobanEnv(levels=[small_xsb], render_mode="rgb_array", max_size=(10, 10))
    observation, info = env.reset(seed=0)
    assert info["boxes_on_goals"] == 0 and info["level_title"] == "small"
    # right pushes the upper box onto its goal
    observation, reward, terminated, truncated, info = env.step(3)
    assert np.isclose(reward, -0.1 + 1.0) and not terminated
    assert info["boxes_on_goals"] == 1
    # left pushes nothing
    _, reward, terminated, _, _ = env.step(2)
    assert np.isclose(reward, -0.1) and not terminated
    # down, right: the lower box onto its goal, solved
    env.step(1)
    _, reward, terminated, truncated, info = env.step(3)
    assert np.isclose(reward, -0.1 + 1.0 + 10.0)
    assert terminated and not truncated and info["boxes_on_goals"] == 2
    frame = env.render()
    assert frame.shape == (80, 80, 3) and frame.dtype == np.uint8


def test_levels_from_a_file(tmp_path, small_xsb):
    path = tmp_path / "levels.xsb"
    path.write_text(small_xsb + "\n" + small_xsb)
    env = SokobanEnv(xsb_file=str(path), max_size=(6, 8))
    observation, _ = env.reset(seed=1)
    assert observation.shape == (4, 6, 8)


def test_the_oracle_solves_from_the_current_position():
    env = gymnasium.make("puzzle_search/Sokoban-v0").unwrapped
    env.reset(seed=1)
    # A few steps first, so that the oracle starts from a position of the episode.
    for action in (0, 2, 1, 3):
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or info["deadlock"]:
            env.reset(seed=1)
            break
    actions = env.solve()
    assert actions, "the generated levels are solvable by construction"
    assert set(actions) <= {0, 1, 2, 3}
    for action in actions:
        observation, reward, terminated, truncated, info = env.step(action)
        if truncated:
            break
    assert terminated, "the oracle's actions solve the level"
    assert reward > 0


def test_the_oracle_takes_the_solvers_options(small_xsb):
    env = gymnasium.make("puzzle_search/Sokoban-v0", levels=[small_xsb]).unwrapped
    env.reset(seed=0)
    actions = env.solve(algo="astar")
    assert actions is not None
    for action in actions:
        _, _, terminated, _, _ = env.step(action)
    assert terminated


def test_generated_levels_have_the_asked_optimal_push_counts():
    env = gymnasium.make("puzzle_search/Sokoban-v0", min_pushes=3, max_pushes=12).unwrapped
    for seed in range(6):
        _, info = env.reset(seed=seed)
        pushes, solution = info["optimal_pushes"], info["optimal_solution"]
        assert 3 <= pushes <= 12
        # The solution plays to solved with exactly that many pushes.
        game = puzzle_search.SokobanGame(env.levels[info["level"]])
        for letter in solution:
            game.step({"u": 0, "d": 1, "l": 2, "r": 3}[letter.lower()])
        assert game.solved and game.pushes == pushes


def test_an_impossible_difficulty_range_is_refused():
    import pytest

    with pytest.raises(ValueError):
        gymnasium.make("puzzle_search/Sokoban-v0", min_pushes=5, max_pushes=4)
    env = gymnasium.make("puzzle_search/Sokoban-v0", min_pushes=10_000, batch=1).unwrapped
    with pytest.raises(RuntimeError, match="widen the range"):
        env.reset(seed=0)
