"""Shared fixtures of the puzzle_search tests."""

import pytest

#: A small Sokoban level with two boxes that the solver answers at once.
SMALL_XSB = """; small
#######
#     #
# @$. #
#  $. #
#######
"""


@pytest.fixture
def small_xsb() -> str:
    """The XSB text of a small two-box level."""
    return SMALL_XSB
