"""puzzle_search's Sokoban environments against gym-sokoban, side by side in one run.

    python crates/python/benchmarks/vs_gym_sokoban.py --peer-python /path/to/gsvenv/bin/python

gym-sokoban needs ``numpy<2`` and the old ``gym``, so it lives in its own virtual environment
(``python -m venv gsvenv && gsvenv/bin/pip install "numpy<2" gym-sokoban``); this script runs
its part there as a subprocess. Every rate is given per wall-clock second and per CPU second
of the process (the second is the fair one on a shared machine). Prints Markdown.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

PEER = r"""
import json, random, sys, time, warnings
warnings.filterwarnings("ignore")
import numpy as np
from gym_sokoban.envs.sokoban_env import SokobanEnv
seconds = float(sys.argv[1])
random.seed(0); np.random.seed(0)
env = SokobanEnv(dim_room=(10, 10), max_steps=120, num_boxes=4)
t, c, levels = time.perf_counter(), time.process_time(), 0
while time.perf_counter() - t < seconds:
    env.reset(); levels += 1
generation = (levels, time.perf_counter() - t, time.process_time() - c)
env.reset()
t, c, steps = time.perf_counter(), time.process_time(), 0
while time.perf_counter() - t < seconds:
    _, _, done, _ = env.step(env.action_space.sample()); steps += 1
    if done:
        env.reset()
stepping = (steps, time.perf_counter() - t, time.process_time() - c)
print(json.dumps({"generation": generation, "steps": stepping}))
"""


def timed(function):
    """``(result, wall seconds, CPU seconds)`` of ``function()``."""
    t, c = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - t, time.process_time() - c


def number(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def rates(count: float, wall: float, cpu: float) -> str:
    return f"{number(count / wall)} / s ({number(count / cpu)} / CPU-s)"


def histogram(pushes: list[int]) -> dict[int, int]:
    return dict(sorted(collections.Counter(pushes).items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer-python", help="a Python with gym-sokoban installed (skip the peer if absent)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per peer measurement (default 20)")
    parser.add_argument("--boxoban", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "data", "sokoban", "boxoban", "unfiltered_test_000.txt"))
    parser.add_argument("--min-pushes", default="12,15", help="difficulty floors of the generated levels, comma-separated (default 12,15)")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON instead of Markdown")
    args = parser.parse_args()

    import puzzle_search as ps
    from puzzle_search.envs import SokobanEnv, SokobanVectorEnv, generate_levels, solve_all_optimally

    out: dict = {"puzzle_search": ps.__version__}
    # The thesis's objective, each level solved by A* and filtered by its push count: the
    # pipeline docs/BENCHMARKS.md#python measured. The default objective (optimal pushes, aimed
    # at a band) is measured in docs/benchmarks/sokogen.md#difficulty.
    generate = {"width": 8, "height": 8, "iterations": 10000, "objective": "score", "threshold": 0.0}

    # Generation: 10x10 levels (8x8 interiors) with 4 boxes, each solved push-optimally.
    floors = [0] + [int(f) for f in args.min_pushes.split(",")]
    for floor in floors:
        (levels, optimal), wall, cpu = timed(lambda: generate_levels(8, generate=generate, boxes=4, min_pushes=floor))
        pushes = [p for p, _ in optimal]
        out[f"generation_min_pushes_{floor}"] = {
            "levels": len(levels), "wall_s": wall, "cpu_s": cpu,
            "mean_pushes": statistics.mean(pushes), "median_pushes": statistics.median(pushes),
            "histogram": histogram(pushes),
        }
    pool = levels

    # Boxoban unfiltered (the same size, 4 boxes), solved by the same A*.
    with open(args.boxoban, encoding="utf-8") as f:
        boxoban = ps.parse_xsb(f.read(), source=args.boxoban)
    answers, wall, cpu = timed(lambda: solve_all_optimally(boxoban))
    pushes = [p for p, _ in answers if p is not None]
    out["boxoban_unfiltered"] = {
        "levels": len(boxoban), "solved": len(pushes), "wall_s": wall,
        "mean_pushes": statistics.mean(pushes), "median_pushes": statistics.median(pushes),
        "histogram": histogram(pushes),
    }

    # One environment through Python: random actions, resets included.
    env = SokobanEnv(levels=pool, max_size=(10, 10))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(4, size=1_000_000)

    def single(seconds: float = 5.0) -> int:
        t, steps = time.perf_counter(), 0
        while time.perf_counter() - t < seconds:
            _, _, terminated, truncated, _ = env.step(int(actions[steps % len(actions)]))
            steps += 1
            if terminated or truncated:
                env.reset()
        return steps

    steps, wall, cpu = timed(single)
    out["single_env"] = {"steps": steps, "wall_s": wall, "cpu_s": cpu}

    # The vector environment: 16384 episodes per call.
    out["vector_env"] = []
    count = 16384
    batch_actions = [rng.integers(4, size=count) for _ in range(16)]
    for layout in ("cells", "planes"):
        for threads in (1, 2):
            for copy in (False, True):
                envs = SokobanVectorEnv(count, levels=pool, max_size=(10, 10), observation=layout, threads=threads, copy=copy)
                envs.reset(seed=0)

                def vector(seconds: float = 3.0) -> int:
                    t, steps = time.perf_counter(), 0
                    while time.perf_counter() - t < seconds:
                        for a in batch_actions:
                            envs.step(a)
                            steps += count
                    return steps

                steps, wall, cpu = timed(vector)
                out["vector_env"].append(
                    {"layout": layout, "threads": threads, "copy": copy, "num_envs": count, "steps": steps, "wall_s": wall, "cpu_s": cpu}
                )
                del envs

    # Memory per environment (resident set growth over 2000 single environments sharing a pool).
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    many = [SokobanEnv(levels=pool, max_size=(10, 10)) for _ in range(2000)]
    for e in many:
        e.reset(seed=0)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["memory_per_single_env_bytes"] = (after - before) * 1024 / len(many)
    out["memory_per_vector_episode_bytes"] = "see the vector env docs: one board copy + one observation"

    if args.peer_python:
        result = subprocess.run([args.peer_python, "-c", PEER, str(args.seconds)], capture_output=True, text=True, check=True)
        out["gym_sokoban"] = json.loads(result.stdout.strip().splitlines()[-1])

    if args.json:
        print(json.dumps(out, indent=1))
        return
    generated = [(floor, out[f"generation_min_pushes_{floor}"]) for floor in floors]
    b = out["boxoban_unfiltered"]
    print("| measurement | puzzle_search | gym-sokoban | ratio (per CPU-s) |")
    print("|---|---|---|---|")
    peer = out.get("gym_sokoban")
    s = out["single_env"]
    if peer:
        pl, pw, pc = peer["generation"]
        ps_, psw, psc = peer["steps"]
        print(f"| steps, one env, random actions, resets included | {rates(s['steps'], s['wall_s'], s['cpu_s'])} | {rates(ps_, psw, psc)} | {number((s['steps']/s['cpu_s'])/(ps_/psc))}× |")
        for floor, g in generated:
            print(f"| 10×10 levels with 4 boxes, ≥ {floor} optimal pushes (each solved by A*) | {rates(g['levels'], g['wall_s'], g['cpu_s'])} | {rates(pl, pw, pc)} (pushes unknown) | {number((g['levels']/g['cpu_s'])/(pl/pc))}× |")
    else:
        print(f"| steps, one env | {rates(s['steps'], s['wall_s'], s['cpu_s'])} | – | – |")
    for v in out["vector_env"]:
        print(f"| vector env, {v['layout']}, {v['num_envs']} envs, threads {v['threads']}, copy {v['copy']} | {rates(v['steps'], v['wall_s'], v['cpu_s'])} | – | – |")
    print(f"| memory per single env | {out['memory_per_single_env_bytes']/1024:,.1f} KiB | – | – |")
    print()
    summaries = [f"generated ≥ {floor}: {g['levels']} levels, mean {g['mean_pushes']:.1f}, median {g['median_pushes']}" for floor, g in generated]
    summaries.append(f"Boxoban unfiltered: {b['solved']}/{b['levels']} levels, mean {b['mean_pushes']:.1f}, median {b['median_pushes']}")
    print("Optimal pushes (A*): " + "; ".join(summaries))
    print()
    rows = [(f"generated ≥ {floor}", g["histogram"], g["levels"]) for floor, g in generated]
    rows.append(("Boxoban unfiltered", b["histogram"], b["solved"]))
    keys = sorted(set().union(*(h for _, h, _ in rows)))
    print("| % of levels with ≥ k optimal pushes, k = | " + " | ".join(str(k) for k in keys) + " |")
    print("|---|" + "---|" * len(keys))
    for name, h, n in rows:
        at_least = [100 * sum(v for p, v in h.items() if p >= k) / n for k in keys]
        print(f"| {name} | " + " | ".join(f"{x:.1f}" for x in at_least) + " |")


if __name__ == "__main__":
    sys.exit(main())
