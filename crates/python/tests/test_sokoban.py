"""Sokoban helpers: parsing XSB, planes, playing a solver's LURD."""

import numpy as np
import pytest

import puzzle_search
from puzzle_search import Level, SokobanGame, parse_xsb

ACTION_OF_LETTER = {"u": 0, "d": 1, "l": 2, "r": 3}


def test_parse_xsb_and_planes(small_xsb):
    (level,) = parse_xsb(small_xsb)
    assert (level.width, level.height) == (7, 5)
    assert level.title == "small"
    assert level.box_count == 2
    planes = level.planes()
    assert planes.dtype == np.uint8 and planes.shape == (4, 5, 7)
    walls, goals, boxes, player = planes
    assert walls.sum() == 7 + 7 + 3 * 2
    assert goals.sum() == 2 and boxes.sum() == 2 and player.sum() == 1
    assert player[2, 2] == 1 and boxes[2, 3] == 1 and goals[2, 4] == 1
    assert Level(level.xsb).xsb == level.xsb


def test_parse_xsb_errors_name_source_line_and_column():
    with pytest.raises(ValueError, match=r"levels\.xsb: level 1, line 2, column 4"):
        parse_xsb("#####\n#@$X#\n#####\n", source="levels.xsb")


def test_solver_solution_replays_to_solved(small_xsb):
    events = puzzle_search.run("sokoban_solve", xsb=small_xsb)
    (result,) = [e for e in events if e["kind"] == "result"]
    assert result["solved"]
    game = SokobanGame(parse_xsb(small_xsb)[0])
    assert not game.solved
    for letter in result["solution"]:
        moved, pushed = game.step(ACTION_OF_LETTER[letter.lower()])
        assert moved and pushed == letter.isupper()
    assert game.solved
    assert game.boxes_on_goals == 2
    assert game.lurd == result["solution"]
    game.reset()
    assert game.moves == 0 and not game.solved


def test_steps_pushes_and_deadlocks(small_xsb):
    game = SokobanGame(small_xsb)
    assert game.step(0) == (True, False)  # up onto the floor
    assert game.step(0) == (False, False)  # into the wall
    game.reset()
    assert game.step(3) == (True, True)  # right: the box onto its goal
    assert game.boxes_on_goals == 1 and not game.deadlocked
    game.reset()
    # around to the right of the lower box, then push it left twice, into a corner
    for action in (0, 3, 3, 3, 1, 1, 2):
        assert game.step(action) == (True, False)
    assert game.step(2) == (True, True)
    assert not game.deadlocked
    assert game.step(2) == (True, True)
    assert game.deadlocked
    assert game.planes()[2, 3, 1] == 1
    assert game.lurd == "urrrddlLL"
    with pytest.raises(ValueError):
        game.step(4)
