#!/usr/bin/env python3
"""Difficulty of generated Sokoban levels beside other sets: quantiles of the measures of
`puzzle rate sokoban --json` (one JSON Lines file per set) as a Markdown table, and histograms as
SVG. The numbers in docs/benchmarks/sokogen.md#difficulty come from it.

    scripts/sokogen-difficulty.py --svg-dir docs/plots \\
        generated=rated-generated.jsonl "Boxoban hard"=rated-hard.jsonl ...

Each argument is NAME=FILE. The table gives, per set: levels, levels whose optimal push count
was proven, and the median, 90th percentile and maximum of the optimal pushes, of A*'s
expansions and of the reachable positions. `--svg-dir` writes `sokogen-difficulty-pushes.svg`
and `sokogen-difficulty-astar.svg` (A*'s expansions on a log scale).
"""
import argparse
import html
import json
import math
import os

COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]


def read(path):
    """The level records of a `puzzle rate sokoban --json` file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                record = json.loads(line)
                if "astar_expanded" in record:
                    out.append(record)
    return out


def quantile(values, q):
    """The q-quantile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summary(values):
    if not values:
        return "–", "–", "–"
    return tuple(f"{quantile(values, q):,}" for q in (0.5, 0.9, 1.0))


def histogram_svg(title, x_label, sets, bins, labels):
    """Grouped bars: for each bin, one bar per set, the share of that set's levels in the bin."""
    width, height, left, right, top, bottom = 1200, 460, 70, 20, 40, 70
    plot_w, plot_h = width - left - right, height - top - bottom
    shares = []
    for _, values in sets:
        counts = [0] * len(bins)
        for v in values:
            for i, (lo, hi) in enumerate(bins):
                if lo <= v < hi:
                    counts[i] += 1
                    break
        total = max(1, len(values))
        shares.append([c / total for c in counts])
    top_share = max(max(s) for s in shares) or 1.0
    top_share = math.ceil(top_share * 10) / 10
    group_w = plot_w / len(bins)
    bar_w = group_w * 0.8 / len(sets)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="14">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="17">{html.escape(title)}</text>',
    ]
    for k in range(0, 6):
        share = top_share * k / 5
        y = top + plot_h - plot_h * share / top_share
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 5:.1f}" text-anchor="end">{share:.0%}</text>')
    for s, row in enumerate(shares):
        for i, share in enumerate(row):
            x = left + i * group_w + group_w * 0.1 + s * bar_w
            h = plot_h * share / top_share
            parts.append(
                f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
                f'fill="{COLOURS[s % len(COLOURS)]}"/>'
            )
    for i, label in enumerate(labels):
        x = left + (i + 0.5) * group_w
        parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 20}" text-anchor="middle">{html.escape(label)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 22}" text-anchor="middle">{html.escape(x_label)}</text>')
    parts.append(
        f'<text x="18" y="{top + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 18 {top + plot_h / 2})">share of the set\'s levels</text>'
    )
    for s, (name, values) in enumerate(sets):
        y = top + 10 + 20 * s
        parts.append(f'<rect x="{left + plot_w - 560}" y="{y}" width="14" height="14" fill="{COLOURS[s % len(COLOURS)]}"/>')
        parts.append(f'<text x="{left + plot_w - 540}" y="{y + 12}">{html.escape(name)} ({len(values):,} levels)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="+", help="NAME=FILE: a `puzzle rate sokoban --json` output")
    parser.add_argument("--svg-dir", help="write the histograms here")
    args = parser.parse_args()
    sets = []
    for arg in args.sets:
        name, _, path = arg.partition("=")
        if not path:
            parser.error(f"{arg!r} is not NAME=FILE")
        sets.append((name, read(path)))
    print("| set | levels | proven | optimal pushes: median / p90 / max | A* expansions: median / p90 / max | reachable positions: median / p90 / max |")
    print("|---|---|---|---|---|---|")
    for name, records in sets:
        proven = [r for r in records if r.get("optimal_pushes") is not None]
        pushes = [r["optimal_pushes"] for r in proven]
        astar = [r["astar_expanded"] for r in proven]
        positions = [r["positions"] for r in records if r.get("positions") is not None]
        print(
            f"| {name} | {len(records):,} | {len(proven):,} | {' / '.join(summary(pushes))} | "
            f"{' / '.join(summary(astar))} | {' / '.join(summary(positions))} |"
        )
    if args.svg_dir:
        os.makedirs(args.svg_dir, exist_ok=True)
        push_sets = [(n, [r["optimal_pushes"] for r in rs if r.get("optimal_pushes") is not None]) for n, rs in sets]
        top = max(max(v, default=0) for _, v in push_sets)
        edges = list(range(0, top + 5, 5))
        bins = list(zip(edges, edges[1:] + [edges[-1] + 5]))
        labels = [f"{lo}–{hi - 1}" for lo, hi in bins]
        with open(os.path.join(args.svg_dir, "sokogen-difficulty-pushes.svg"), "w", encoding="utf-8") as f:
            f.write(histogram_svg("Optimal pushes per level", "optimal pushes (proven by A*)", push_sets, bins, labels))
        effort_sets = [(n, [r["astar_expanded"] for r in rs if r.get("optimal_pushes") is not None]) for n, rs in sets]
        top = max(max(v, default=1) for _, v in effort_sets)
        powers = list(range(0, max(1, math.ceil(math.log10(top + 1))) + 1))
        bins = [(0 if p == 0 else 10**p, 10 ** (p + 1)) for p in powers]
        labels = [f"<{10 ** (p + 1):,}" if p == 0 else f"{10**p:,}–{10 ** (p + 1) - 1:,}" for p in powers]
        with open(os.path.join(args.svg_dir, "sokogen-difficulty-astar.svg"), "w", encoding="utf-8") as f:
            f.write(histogram_svg("A* expansions per level (solver effort)", "positions A* expanded to prove the optimum", effort_sets, bins, labels))


if __name__ == "__main__":
    main()
