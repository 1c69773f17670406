"""What the vector environments share."""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np
from gymnasium.utils import seeding


def sub_seeds(seed: Optional[Union[int, Sequence[Optional[int]]]], num_envs: int) -> list[Optional[int]]:
    """The seed of each sub-environment, as ``SyncVectorEnv`` gives them: ``seed + i`` for an int,
    the list itself (of ``num_envs`` seeds), or ``None`` each (fresh entropy)."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)):
        return [int(seed) + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"{len(seeds)} seeds for {num_envs} environments")
    return seeds



def stream_seed(rng: np.random.Generator) -> int:
    """The seed of an environment's reset stream (the levels, boards or puzzles its resets draw),
    drawn from a Gymnasium ``np_random``."""
    return int(rng.integers(2**63))


def stream_seeds(seed: Optional[Union[int, Sequence[Optional[int]]]], num_envs: int) -> list[int]:
    """Each sub-environment's stream seed: what the single environment reset with that
    sub-environment's seed (:func:`sub_seeds`) draws from its ``np_random``."""
    return [stream_seed(seeding.np_random(s)[0]) for s in sub_seeds(seed, num_envs)]
