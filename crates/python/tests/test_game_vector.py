"""SameGameVectorEnv, SudokuVectorEnv and BaitVectorEnv: N episodes stepped in Rust, against N
single environments (as gymnasium's SyncVectorEnv runs them) step for step."""

import gymnasium
import numpy as np
import pytest

import puzzle_search  # noqa: F401  (registers the environments)
from puzzle_search.envs import (
    BaitEnv,
    BaitVectorEnv,
    SameGameEnv,
    SameGameVectorEnv,
    SudokuEnv,
    SudokuVectorEnv,
)

#: 4×4 puzzles, so that random legal moves sometimes solve one and sometimes get stuck.
SMALL_SUDOKUS = ".234341221434321\n1..43..2.1..4..1\n....3412....4321\n"

GAMES = {
    "samegame-random": (SameGameEnv, SameGameVectorEnv, dict(random=(6, 5, 3), max_steps=6)),
    "samegame-boards": (SameGameEnv, SameGameVectorEnv, dict(board_set="standard20", penalty="total")),
    "sudoku": (SudokuEnv, SudokuVectorEnv, dict(puzzles=SMALL_SUDOKUS)),
    "bait": (BaitEnv, BaitVectorEnv, dict(level=1)),
}


def _mask(env, info):
    """A single environment's action mask (Bait's actions are all legal)."""
    if "action_mask" in info:
        return info["action_mask"]
    return np.ones(env.action_space.n, dtype=np.int8)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_vector_env_equals_single_envs_step_for_step(game, threads):
    single_type, vector_type, options = GAMES[game]
    count = 5
    vector = vector_type(count, threads=threads, **options)
    singles = [single_type(**options) for _ in range(count)]
    assert vector.single_observation_space == singles[0].observation_space
    assert vector.single_action_space == singles[0].action_space
    observations, infos = vector.reset(seed=30)
    masks = []
    for i, env in enumerate(singles):
        single, info = env.reset(seed=30 + i)
        assert np.array_equal(observations[i], single)
        masks.append(_mask(env, info))
        assert np.array_equal(infos["action_mask"][i], masks[i])
    rng = np.random.default_rng(1)
    ended = [False] * count
    ends = resets = 0
    for _ in range(250):
        # Mostly legal actions (so that episodes end), sometimes any action.
        actions = []
        for mask in masks:
            legal = np.flatnonzero(mask)
            if len(legal) and rng.random() < 0.9:
                actions.append(int(rng.choice(legal)))
            else:
                actions.append(int(rng.integers(len(mask))))
        observations, rewards, terminations, truncations, infos = vector.step(np.array(actions))
        for i, env in enumerate(singles):
            if ended[i]:
                single, info = env.reset()
                reward, terminated, truncated = 0.0, False, False
                resets += 1
            else:
                single, reward, terminated, truncated, info = env.step(actions[i])
            masks[i] = _mask(env, info)
            assert np.array_equal(observations[i], single), (game, i)
            assert rewards[i] == reward, (game, i)
            assert (terminations[i], truncations[i]) == (terminated, truncated), (game, i)
            assert np.array_equal(infos["action_mask"][i], masks[i]), (game, i)
            ended[i] = terminated or truncated
            ends += ended[i]
    # The run exercised the ends and the auto-resets.
    assert ends > 0 and resets > 0, (game, ends, resets)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_make_vec_uses_the_rust_vector_env(game):
    env_id = {"samegame": "SameGame", "sudoku": "Sudoku", "bait": "Bait"}[game.split("-")[0]]
    _, vector_type, options = GAMES[game]
    envs = gymnasium.make_vec(
        f"puzzle_search/{env_id}-v0", num_envs=3, vectorization_mode="vector_entry_point", **options
    )
    assert isinstance(envs.unwrapped, vector_type)
    observations, _ = envs.reset(seed=0)
    assert observations.shape == (3, *envs.single_observation_space.shape)
    assert envs.observation_space.contains(observations)
    envs.close()


def test_copy_false_returns_the_env_s_own_buffers():
    vector = SameGameVectorEnv(2, copy=False, random=(5, 5, 3))
    first, _ = vector.reset(seed=3)
    second, _, _, _, _ = vector.step(np.zeros(2, dtype=np.int64))
    assert first is second


def test_bad_actions_and_seeds_are_refused():
    vector = SudokuVectorEnv(2, puzzles=SMALL_SUDOKUS)
    with pytest.raises(RuntimeError):
        vector.step(np.zeros(2, dtype=np.int64))
    vector.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[1\]"):
        vector.step(np.array([0, 64]))
    with pytest.raises(ValueError, match="seeds"):
        vector.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="num_envs"):
        BaitVectorEnv(0)
