"""The environments under the checkers of the training libraries people use. Each test runs
where its library is installed and is skipped elsewhere: Stable-Baselines3 needs PyTorch, too
heavy for CI (docs/PYTHON.md says where and when these ran)."""

import gymnasium
import numpy as np
import pytest

import puzzle_search  # noqa: F401  (registers the environments)
from puzzle_search.envs import SokobanEnv

#: Every environment id with small, quick settings.
ENVS = [
    ("puzzle_search/Sokoban-v0", {"level_set": "microban"}),
    ("puzzle_search/SameGame-v0", {}),
    ("puzzle_search/SameGame-v0", {"random": (6, 5, 3)}),
    ("puzzle_search/Sudoku-v0", {}),
    ("puzzle_search/Bait-v0", {"level": 2}),
]


@pytest.mark.parametrize("env_id,kwargs", ENVS)
def test_stable_baselines3_check_env(env_id, kwargs):
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(env_id, **kwargs).unwrapped
    # warn=True: SB3 only warns about what it can still train on (e.g. image-like Box spaces);
    # anything it cannot use raises.
    env_checker.check_env(env, warn=True)


def test_stable_baselines3_ppo_learns_a_one_push_level():
    """PPO, through SB3's own vector environment, learns to solve a level of one push: the
    environment's rewards and ends are what a trainer needs."""
    sb3 = pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    level = "#####\n#@$.#\n#####\n"
    env = make_vec_env(SokobanEnv, n_envs=4, seed=0, env_kwargs={"levels": [level], "max_steps": 20})
    model = sb3.PPO("MlpPolicy", env, seed=0, n_steps=64, batch_size=64, device="cpu", verbose=0)
    model.learn(3000)
    single = SokobanEnv(levels=[level], max_steps=20)
    observation, _ = single.reset(seed=0)
    action, _ = model.predict(observation, deterministic=True)
    _, reward, terminated, _, _ = single.step(int(np.asarray(action)))
    assert terminated and reward > 0
