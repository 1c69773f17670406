"""puzzle_search's Sokoban and Sudoku vector environments against jumanji's, side by side in one
run on the CPU.

    python crates/python/benchmarks/vs_jumanji.py --seconds 5 --threads 1

Needs both packages in one environment (``pip install ./crates/python "jumanji==1.1.2"
"jax[cpu]"``). Both sides play the same levels with uniformly random actions and automatic
resets:

- **Sokoban**: jumanji's 10×10 grids from its toy generator (its default generator downloads
  Boxoban from the Hugging Face hub); ours the first 1,000 levels of Boxoban's unfiltered test
  file, bundled in ``data/sokoban/boxoban`` (10×10, 4 boxes). Four actions each.
- **Sudoku**: both play jumanji's own database of 10,000 mixed puzzles (shipped with jumanji),
  729 actions (cell × value), the same rules: an illegal action ends the episode.

jumanji is timed as its documentation recommends for throughput: ``jit`` of a ``lax.scan`` over
``--scan`` steps of ``VmapAutoResetWrapper``'s step (``vmap`` with auto-reset), the random
actions drawn inside the scan; the compile is done before the clock starts. Ours: the vector
environment's ``step`` with ``copy=False``, the random actions drawn outside the clock. Every
rate is steps per wall second and per CPU second of the process (XLA's CPU backend may use
several threads: the CPU second is the fair unit on a shared machine). Prints Markdown, or JSON
with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BOXOBAN = os.path.join(HERE, "..", "..", "..", "data", "sokoban", "boxoban", "unfiltered_test_000.txt")


def measure(step_block, steps_per_block: int, seconds: float) -> tuple[float, float]:
    """Steps per wall second and per CPU second of ``step_block()`` (one call plays
    ``steps_per_block`` steps), repeated for ``seconds``."""
    step_block()  # warm up (and compile, for jumanji)
    steps, wall, cpu = 0, 0.0, 0.0
    while wall < seconds:
        w, c = time.perf_counter(), time.process_time()
        step_block()
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
        steps += steps_per_block
    return steps / wall, steps / max(cpu, 1e-9)


def jumanji_block(env, batch: int, scan: int, actions: int):
    """A function that plays ``scan`` auto-reset steps of ``batch`` jumanji environments."""
    import jax
    import jax.numpy as jnp
    from jumanji.wrappers import VmapAutoResetWrapper

    wrapped = VmapAutoResetWrapper(env)
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state, _ = jax.jit(wrapped.reset)(keys)

    def body(carry, _):
        state, key = carry
        key, sub = jax.random.split(key)
        action = jax.random.randint(sub, (batch,), 0, actions)
        state, timestep = wrapped.step(state, action)
        return (state, key), jnp.sum(timestep.reward)

    @jax.jit
    def run(state, key):
        (state, key), rewards = jax.lax.scan(body, (state, key), None, length=scan)
        return state, key, rewards

    box = {"state": state, "key": jax.random.PRNGKey(1)}

    def block() -> None:
        state, key, rewards = run(box["state"], box["key"])
        rewards.block_until_ready()
        box["state"], box["key"] = state, key

    return block


def jumanji_sudoku_action(env):
    """jumanji's Sudoku takes (row, column, value − 1) triples: a flat action of ours, mapped."""
    import jax.numpy as jnp

    class Flat:
        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def reset(self, key):
            return self.inner.reset(key)

        def step(self, state, action):
            cell, value = jnp.divmod(action, 9)
            row, col = jnp.divmod(cell, 9)
            return self.inner.step(state, jnp.stack([row, col, value]))

    return Flat(env)


def ours_block(envs, batch: int, actions: int, seed: int = 0):
    """A function that plays one step of our vector environment with random actions, the draw
    outside the clock (it is Python's, not the environment's)."""
    rng = np.random.default_rng(seed)
    pool = rng.integers(actions, size=(64, batch))
    envs.reset(seed=0)
    counter = {"i": 0}

    def block() -> None:
        envs.step(pool[counter["i"] % 64])
        counter["i"] += 1

    return block


def sudoku_text(database: np.ndarray) -> str:
    """Puzzle lines (``.`` empty) of a jumanji database (0 empty, values 1–9)."""
    return "\n".join("".join(str(v) if v else "." for v in grid.ravel()) for grid in database) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    parser.add_argument("--threads", type=int, default=1, help="rayon threads of our vector environments (default 1)")
    parser.add_argument("--batches", default="1,256,4096,16384", help="batch sizes, comma-separated")
    parser.add_argument("--scan", type=int, default=100, help="jumanji steps per jitted call (default 100)")
    parser.add_argument("--games", default="sokoban,sudoku", help="games, comma-separated")
    parser.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    args = parser.parse_args()

    import jax
    import jumanji
    import puzzle_search as ps
    from jumanji.environments.logic.sudoku import Sudoku
    from jumanji.environments.logic.sudoku.data import DATABASES
    from jumanji.environments.logic.sudoku.generator import DatabaseGenerator
    from jumanji.environments.routing.sokoban import Sokoban
    from jumanji.environments.routing.sokoban.generator import ToyGenerator
    from puzzle_search.envs import SokobanVectorEnv, SudokuVectorEnv

    sudoku_dir = os.path.join(os.path.dirname(jumanji.__file__), "environments", "logic", "sudoku", "data")
    database = np.load(os.path.join(sudoku_dir, DATABASES["mixed"]))
    with open(BOXOBAN, encoding="utf-8") as f:
        boxoban = ps.parse_xsb(f.read(), source=BOXOBAN)[:1000]

    games = {
        "Sokoban 10×10": (
            lambda: Sokoban(generator=ToyGenerator()),
            lambda n: SokobanVectorEnv(n, levels=boxoban, max_size=(10, 10), threads=args.threads, copy=False),
            4,
        ),
        "Sudoku 9×9": (
            lambda: jumanji_sudoku_action(Sudoku(generator=DatabaseGenerator(database=database))),
            lambda n: SudokuVectorEnv(n, puzzles=sudoku_text(database), threads=args.threads, copy=False),
            729,
        ),
    }
    chosen = {g.strip().lower() for g in args.games.split(",")}
    rows = []
    for name, (peer, ours, actions) in games.items():
        if name.split()[0].lower() not in chosen:
            continue
        for batch in [int(b) for b in args.batches.split(",")]:
            peer_rate = measure(jumanji_block(peer(), batch, args.scan, actions), batch * args.scan, args.seconds)
            our_rate = measure(ours_block(ours(batch), batch, actions), batch, args.seconds)
            rows.append({"game": name, "batch": batch, "ours": our_rate, "jumanji": peer_rate})
    meta = {
        "puzzle_search": ps.__version__,
        "jumanji": jumanji.__version__,
        "jax": jax.__version__,
        "devices": [str(d) for d in jax.devices()],
        "threads": args.threads,
        "scan": args.scan,
    }
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows}, indent=1))
        return
    print(f"puzzle_search {meta['puzzle_search']}, jumanji {meta['jumanji']} (jax {meta['jax']}, {', '.join(meta['devices'])}); "
          f"our threads {args.threads}, jumanji's scan {args.scan}")
    print()
    print("| game | batch | ours: steps/s (per CPU-s) | jumanji: steps/s (per CPU-s) | ours ÷ jumanji per CPU-s |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        (ow, oc), (jw, jc) = row["ours"], row["jumanji"]
        print(f"| {row['game']} | {row['batch']:,} | {ow:,.0f} ({oc:,.0f}) | {jw:,.0f} ({jc:,.0f}) | {oc / jc:,.1f}× |")


if __name__ == "__main__":
    main()
