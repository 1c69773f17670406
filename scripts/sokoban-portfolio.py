#!/usr/bin/env python3
"""Choose a sequential Sokoban portfolio's phase shares from measured search times.

(Until 26 Nov 2026 the one-thread portfolio was such a sequence; now one thread runs the two
lists of the two-thread portfolio by turns, and this replays one list, or any other sequence.)

Input: the output of `try_orders FILE all SECS RUN...` (one line per level and search, ending
with the search thread's CPU seconds), one file per level set. Every search of the portfolio
ran alone on every level, so the portfolio's outcome for any order and shares can be replayed
offline: a phase starts when the earlier ones have used their windows (a search that stops
early passes the rest on) and solves the level if its measured time fits in its window.

    scripts/sokoban-portfolio.py --budget 10 train:microban.txt train:microban2.txt \
        [--portfolio 'gm-c4:10,wm2-c4-f1:35,...'] [--optimize]

`--optimize` climbs from the given portfolio (moves of 5-25 % between phases, swaps of
neighbours, a search replaced by another) to the most levels solved at the budget over the
`train:` sets, ties broken by the most solved at half the budget (a slower machine loses
least), then by the fewest changes; `check:` sets are only reported.
"""
import argparse
import math
import re
import sys

LINE = re.compile(r"^\s*(\d+) (\S+)\s+(\w+) pushes (Some\(\d+\)|None) .* cpu ([0-9.]+) s$")
NO_MACROS = {"astar", "w2-c4", "w2-c4-f1"}
# Share moves tried, in per cent of the budget: the smallest first, so a small change wins
# when it does as well as a large one.
STEPS = (5, 10, 15, 20, 25)


def load(path):
    levels = {}
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        n, search, stop, pushes, cpu = m.groups()
        solved = pushes != "None"
        levels.setdefault(int(n), {})[search] = (solved, stop, float(cpu))
    return levels


def run(portfolio, level, budget):
    """Seconds to solve `level` with `portfolio` within `budget`, or None."""
    t, cum = 0.0, 0
    for i, (search, share) in enumerate(portfolio):
        cum += share
        end = budget if i + 1 == len(portfolio) else budget * min(cum, 100) / 100
        avail = end - t
        if avail <= 0:
            continue
        solved, stop, cpu = level.get(search, (False, "Time", math.inf))
        if solved and cpu <= avail:
            return t + cpu
        if stop == "Exhausted" and cpu < avail:
            if search in NO_MACROS:
                return None  # proved unsolvable
            t += cpu
        else:
            t = end
    return None


def score(portfolio, sets, budget):
    full = sum(run(portfolio, lv, budget) is not None for s in sets for lv in s.values())
    half = sum(run(portfolio, lv, budget / 2) is not None for s in sets for lv in s.values())
    return full, half


def parse_portfolio(text):
    out = []
    for part in text.split(","):
        name, share = part.rsplit(":", 1)
        out.append((name, int(share)))
    return out


def show(portfolio):
    return ",".join(f"{n}:{s}" for n, s in portfolio)


def neighbours(p, searches):
    n = len(p)
    for step in STEPS:
        for i in range(n):
            for j in range(n):
                if i != j and p[i][1] >= step:
                    q = list(p)
                    q[i] = (q[i][0], q[i][1] - step)
                    q[j] = (q[j][0], q[j][1] + step)
                    if q[i][1] == 0:
                        del q[i]
                    yield q
    for i in range(n - 1):
        q = list(p)
        q[i], q[i + 1] = q[i + 1], q[i]
        yield q
    for i in range(n):
        for s in searches:
            if s != p[i][0]:
                q = list(p)
                q[i] = (s, q[i][1])
                yield q


def valid(p):
    names = [n for n, _ in p]
    return p and p[-1][0] in NO_MACROS and len(set(names)) == len(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", help="train:FILE or check:FILE")
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--portfolio", default="gm-c4:10,wm2-c4-f1:35,gm-c4-f1:10,gm-c8:10,gm-c0:5,gm-c2:5,w2-c4:15,astar:10")
    ap.add_argument("--optimize", action="store_true")
    a = ap.parse_args()
    train, check = [], []
    for s in a.sets:
        kind, path = s.split(":", 1)
        (train if kind == "train" else check).append((path, load(path)))
    searches = sorted({k for _, s in train for lv in s.values() for k in lv})
    p = parse_portfolio(a.portfolio)

    def report(p, label):
        print(f"{label}: {show(p)}")
        for path, s in train + check:
            lv = list(s.values())
            full = sum(run(p, l, a.budget) is not None for l in lv)
            half = sum(run(p, l, a.budget / 2) is not None for l in lv)
            fails = [n for n, l in s.items() if run(p, l, a.budget) is None]
            print(f"  {path}: {full}/{len(lv)} at {a.budget:g} s, {half} at {a.budget/2:g} s; unsolved {fails}")

    report(p, "start")
    if a.optimize:
        sets = [s for _, s in train]
        best = score(p, sets, a.budget)
        improved = True
        while improved:
            improved = False
            for q in neighbours(p, searches):
                if not valid(q):
                    continue
                sc = score(q, sets, a.budget)
                if sc > best:
                    p, best, improved = q, sc, True
                    break
        report(p, "optimized")


if __name__ == "__main__":
    main()
