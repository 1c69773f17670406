"""SokobanVectorEnv: N episodes stepped in Rust, against N single environments step for step."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import puzzle_search  # noqa: F401  (registers the environments)
from puzzle_search.envs import SokobanEnv, SokobanVectorEnv

#: A level solved by one push right, so that random episodes sometimes terminate.
ONE_PUSH = "#####\n#@$.#\n#####\n"


def _levels(small_xsb):
    return [ONE_PUSH, small_xsb] + [level.xsb for level in puzzle_search.sokoban_set("microban")[:6]]


@pytest.mark.parametrize("observation", ["planes", "cells", "tiny_rgb"])
@pytest.mark.parametrize("actions", [4, 8])
@pytest.mark.parametrize("threads", [1, 2])
def test_vector_env_equals_single_envs_step_for_step(small_xsb, observation, actions, threads):
    levels = _levels(small_xsb)
    options = dict(levels=levels, max_size=(12, 12), max_steps=15, observation=observation, actions=actions)
    count = 5
    vector = SokobanVectorEnv(count, threads=threads, **options)
    singles = [SokobanEnv(**options) for _ in range(count)]
    observations, _ = vector.reset(seed=40)
    for i, env in enumerate(singles):
        single, _ = env.reset(seed=40 + i)
        assert np.array_equal(observations[i], single)
    rng = np.random.default_rng(0)
    ended = [False] * count
    terminated_seen = truncated_seen = 0
    for _ in range(300):
        actions_now = rng.integers(actions, size=count)
        observations, rewards, terminations, truncations, infos = vector.step(actions_now)
        assert infos == {}
        for i, env in enumerate(singles):
            if ended[i]:
                # NEXT_STEP auto-reset: this step resets the sub-environment.
                single, _ = env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                single, reward, terminated, truncated, _ = env.step(int(actions_now[i]))
            assert np.array_equal(observations[i], single)
            assert rewards[i] == reward
            assert (terminations[i], truncations[i]) == (terminated, truncated)
            ended[i] = terminated or truncated
            terminated_seen += terminated
            truncated_seen += truncated
    assert terminated_seen > 0 and truncated_seen > 0, "both ends of an episode were exercised"


def test_make_vec_and_spaces(small_xsb):
    envs = gymnasium.make_vec(
        "puzzle_search/Sokoban-v0", num_envs=3, vectorization_mode="vector_entry_point", levels=[small_xsb],
        max_size=(10, 10),
    )
    observations, _ = envs.reset(seed=0)
    assert observations.shape == (3, 4, 10, 10) and observations.dtype == np.uint8
    assert envs.single_action_space == gymnasium.spaces.Discrete(4)
    observations, rewards, terminations, truncations, _ = envs.step(envs.action_space.sample())
    assert envs.observation_space.contains(observations)
    assert rewards.dtype == np.float64 and terminations.dtype == bool and truncations.dtype == bool


def test_copy_false_hands_out_the_same_buffer(small_xsb):
    envs = SokobanVectorEnv(2, levels=[small_xsb], copy=False)
    first, _ = envs.reset(seed=0)
    second, *_ = envs.step([3, 3])
    assert first is second or np.shares_memory(first, second)
    copied = SokobanVectorEnv(2, levels=[small_xsb])
    a, _ = copied.reset(seed=0)
    b, *_ = copied.step([3, 3])
    assert not np.shares_memory(a, b)


def test_bad_actions_are_refused(small_xsb):
    envs = SokobanVectorEnv(2, levels=[small_xsb])
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[1\] = 4"):
        envs.step([0, 4])
    with pytest.raises(ValueError):
        envs.step([0, 0, 0])


def test_eight_actions_move_without_pushing():
    env = gymnasium.make("puzzle_search/Sokoban-v0", levels=[ONE_PUSH], actions=8, observation="cells").unwrapped
    check_env(env)
    observation, _ = env.reset(seed=0)
    moved, reward, terminated, _, _ = env.step(7)  # move-only right: the box stays
    assert np.array_equal(moved, observation) and not terminated
    assert np.isclose(reward, -0.1)
    _, reward, terminated, _, _ = env.step(3)  # push right
    assert terminated and np.isclose(reward, -0.1 + 1 + 10)


def test_cells_layout_flags(small_xsb):
    env = SokobanEnv(levels=[small_xsb], observation="cells", max_size=(10, 10))
    observation, _ = env.reset(seed=0)
    assert observation.shape == (10, 10)
    planes, _ = SokobanEnv(levels=[small_xsb], max_size=(10, 10)).reset(seed=0)
    for bit, plane in zip((1, 2, 4, 8), planes):
        assert np.array_equal((observation & bit) != 0, plane.astype(bool))


def test_deadlock_after_pushing_a_box_into_a_corner():
    level = "######\n#    #\n# $@.#\n#    #\n######\n"
    env = SokobanEnv(levels=[level])
    _, info = env.reset(seed=0)
    assert not info["deadlock"]
    env.step(2)  # push the box left, next to the wall: on a dead square
    _, _, _, _, info = env.step(2)
    assert info["deadlock"]


def test_bundled_sets_and_unknown_ones():
    env = SokobanEnv(level_set="microban")
    _, info = env.reset(seed=0)
    assert info["level_title"]
    with pytest.raises(ValueError, match="microban"):
        SokobanEnv(level_set="nope")


def test_rgb_observations_are_the_rendered_picture(small_xsb):
    env = gymnasium.make(
        "puzzle_search/Sokoban-v0", levels=[small_xsb], observation="rgb", render_mode="rgb_array"
    ).unwrapped
    check_env(env)
    observation, _ = env.reset(seed=0)
    assert observation.shape == (5 * 8, 7 * 8, 3)
    for action in (3, 1, 2):
        observation, *_ = env.step(action)
        assert np.array_equal(observation, env.render())
    tiny = gymnasium.make("puzzle_search/Sokoban-v0", levels=[small_xsb], observation="tiny_rgb").unwrapped
    small, _ = tiny.reset(seed=0)
    for action in (3, 1, 2):
        small, *_ = tiny.step(action)
    assert np.array_equal(small, observation[::8, ::8])
