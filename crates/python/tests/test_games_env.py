"""The SameGame, Sudoku and Bait environments: check_env, masks, rewards, the oracles."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import puzzle_search  # noqa: F401  (registers the environments)

#: Top row first: R R G / R G G / B B G (colours 1 R, 2 G, 3 B).
SMALL_BOARD = "3 3 3\nRRG\nRGG\nBBG\n"


@pytest.mark.parametrize(
    "env_id,kwargs",
    [
        ("puzzle_search/SameGame-v0", {}),
        ("puzzle_search/SameGame-v0", {"random": (6, 5, 3)}),
        ("puzzle_search/Sudoku-v0", {}),
        ("puzzle_search/Bait-v0", {"level": 2}),
    ],
)
def test_check_env_passes(env_id, kwargs):
    check_env(gymnasium.make(env_id, **kwargs).unwrapped)


def test_samegame_mask_rewards_and_end():
    env = gymnasium.make("puzzle_search/SameGame-v0", boards=SMALL_BOARD).unwrapped
    observation, info = env.reset(seed=0)
    assert observation.tolist() == [[1, 1, 2], [1, 2, 2], [3, 3, 2]]
    # Every stone is in a group of two or more.
    assert info["action_mask"].tolist() == [1] * 9
    # Clicking the Rs removes three stones: (3 - 2)^2 = 1 point.
    observation, reward, terminated, truncated, info = env.step(0)
    assert reward == 1.0 and info["legal"] and not terminated
    assert info["stones"] == 6
    # A click on an empty cell is no move.
    _, reward, _, _, info = env.step(0)
    assert reward == 0.0 and not info["legal"]
    total = 1.0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, truncated, info = env.step(int(legal[0]))
        total += reward
        if terminated or truncated:
            break
    assert terminated
    # The return is the game's score: replay the same clicks through the job to compare.
    assert total == env._core.points + (1000 if info["stones"] == 0 else 0)


def _text_grid(text: str, height: int, width: int) -> np.ndarray:
    """The board of ``SameGameCore.text()`` (the crate's own writer) as observation codes."""
    lines = text.splitlines()
    letters = {ch: k + 1 for k, ch in enumerate("RGBYVCMOPW")}
    grid = np.zeros((height, width), dtype=np.uint8)
    top = height - (len(lines) - 1)
    for r, line in enumerate(lines[1:]):
        for c, ch in enumerate(line):
            grid[top + r if top > 0 else r, c] = letters.get(ch, 0)
    return grid


@pytest.mark.parametrize("kwargs", [{}, {"random": (9, 7, 4)}, {"random": (5, 12, 2)}])
def test_samegame_observation_and_mask_follow_the_board(kwargs):
    """Played at random, the observation is the board the crate writes, and the mask marks
    exactly the stones with a neighbour of their colour (a group of two or more)."""
    env = gymnasium.make("puzzle_search/SameGame-v0", **kwargs).unwrapped
    rng = np.random.default_rng(7)
    for episode in range(6):
        observation, info = env.reset(seed=episode)
        height, width = observation.shape
        while True:
            board = _text_grid(env._core.text(), height, width)
            # The writer prints the rows down to the lowest; the board sits in the top-left.
            assert (observation[: board.shape[0]] == board).all()
            padded = np.pad(observation, 1)
            centre = padded[1:-1, 1:-1]
            pair = (
                (centre == padded[:-2, 1:-1])
                | (centre == padded[2:, 1:-1])
                | (centre == padded[1:-1, :-2])
                | (centre == padded[1:-1, 2:])
            )
            assert (info["action_mask"].reshape(height, width) == ((centre != 0) & pair)).all()
            legal = np.flatnonzero(info["action_mask"])
            action = int(rng.choice(legal)) if legal.size and rng.random() < 0.9 else int(rng.integers(height * width))
            observation, _, terminated, truncated, info = env.step(action)
            assert info["legal"] == bool(action in legal)
            if terminated or truncated:
                break


def test_sudoku_mask_follows_the_rules():
    """Played at random, the mask marks exactly the values an empty cell's row, column and box
    do not hold, and a masked action writes its value."""
    env = gymnasium.make("puzzle_search/Sudoku-v0").unwrapped
    rng = np.random.default_rng(3)
    for episode in range(20):
        grid, info = env.reset(seed=episode)
        while True:
            mask = info["action_mask"].reshape(9, 9, 9)
            for cell in range(81):
                r, c = divmod(cell, 9)
                b = grid[r // 3 * 3 : r // 3 * 3 + 3, c // 3 * 3 : c // 3 * 3 + 3]
                used = set(grid[r]) | set(grid[:, c]) | set(b.ravel())
                expected = [grid[r, c] == 0 and v + 1 not in used for v in range(9)]
                assert mask[r, c].tolist() == [int(x) for x in expected]
            legal = np.flatnonzero(info["action_mask"])
            if not legal.size:
                break
            action = int(rng.choice(legal))
            grid, reward, terminated, _, info = env.step(action)
            assert grid[divmod(action // 9, 9)] == action % 9 + 1
            if terminated:
                assert reward == 1.0 or not info["action_mask"].any()
                break


def test_samegame_oracle_replays_to_its_score():
    env = gymnasium.make("puzzle_search/SameGame-v0", random=(8, 8, 3)).unwrapped
    env.reset(seed=5)
    actions = env.solve(time_limit=None, iterations=3000, seed=1)
    assert actions
    total, terminated = 0.0, False
    for action in actions:
        _, reward, terminated, _, info = env.step(action)
        assert info["legal"]
        total += reward
    assert terminated
    assert total > 0


def test_sudoku_mask_oracle_and_illegal_actions():
    env = gymnasium.make("puzzle_search/Sudoku-v0", puzzle_set="easy").unwrapped
    observation, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.shape == (729,)
    # A filled cell has no legal action.
    filled = int(np.flatnonzero(observation.reshape(-1))[0])
    assert mask[filled * 9 : filled * 9 + 9].sum() == 0
    actions = env.solve()
    assert actions and len(actions) == int((observation == 0).sum())
    for action in actions:
        assert info["action_mask"][action] == 1
        observation, reward, terminated, _, info = env.step(action)
    assert terminated and reward == 1.0 and info["solved"]
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(filled * 9)
    assert terminated and reward == 0.0 and not info["legal"]


def test_bait_oracle_wins_level_0():
    env = gymnasium.make("puzzle_search/Bait-v0", level=0).unwrapped
    observation, info = env.reset(seed=0)
    assert observation.dtype == np.uint8 and info["status"] == "playing"
    actions = env.solve()
    assert actions
    total = 0.0
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
    assert terminated and info["status"] == "won"
    assert total == info["points"]


def test_bad_inputs_name_the_place():
    with pytest.raises(ValueError, match=r"boards:2"):
        gymnasium.make("puzzle_search/SameGame-v0", boards="3 3 3\nRRX\nRGG\nBBG\n")
    with pytest.raises(ValueError, match="top95"):
        gymnasium.make("puzzle_search/Sudoku-v0", puzzle_set="nope")
    with pytest.raises(ValueError, match="0–4"):
        gymnasium.make("puzzle_search/Bait-v0", level=7)
