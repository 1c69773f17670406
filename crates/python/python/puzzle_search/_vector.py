"""What the vector environments share."""

from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np


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
