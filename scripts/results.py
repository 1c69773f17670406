#!/usr/bin/env python3
"""Comparison tables and plots of docs/results/ from the recorded runs' JSON Lines.

Every number this prints comes from the JSON Lines files named on the command line (the merged
output of `puzzle merge`, or the shards themselves), beside the papers' published numbers
(cited below with their table and page). The reports in docs/results/ quote its output.

    scripts/results.py czech-samegame docs/results/raw/czech-samegame.jsonl
    scripts/results.py sudoku docs/results/raw/czech-sudoku-*.jsonl
    scripts/results.py bait docs/results/raw/bait.jsonl
    scripts/results.py samegame-solve docs/results/raw/samegame-spmcts.jsonl ...
    scripts/results.py ga docs/results/raw/ga-*.jsonl
    scripts/results.py sokogen --plots DIR docs/results/raw/sokogen-thesis-iterations-*.jsonl

`--plots DIR` writes SVG plots there (for the commands whose experiment writes none itself).
"""
import argparse
import json
import math
import statistics
import sys
from collections import defaultdict

# The Czech thesis (Malý 2010), §3.4, pp. 24-25: totals over the 20 standard boards,
# 700,000 simulations per board, 20 simulations before expansion.
CZECH_TOTALS = {
    "tabu": {"ucb-tuned": 63606, "uctk0.1": 66091, "uctk0.2": 67409, "uctk0.4": 62624},
    "pseudo-tabu-3": {"ucb-tuned": 55228, "uctk0.1": 64136, "uctk0.2": 62566, "uctk0.4": 56244},
    "double-tabu": {"ucb-tuned": 61739, "uctk0.1": 60988, "uctk0.2": 62910, "uctk0.4": 62443},
}
# §3.5, p. 27: the best score of each board over all twelve settings, summed.
CZECH_BEST_OF_ALL = 71076


def records(paths):
    """Every JSON object of the files, the header lines (`request`) left out."""
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a cut-off last line of an interrupted shard
                if "request" in r:
                    continue
                yield r


def fmt(x, digits=0):
    if x is None:
        return "–"
    if digits == 0:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def signed(x, digits=0):
    if x is None:
        return "–"
    s = fmt(abs(x), digits)
    return ("+" if x >= 0 else "−") + s


def svg_open(width, height, title, font_size):
    """The opening lines of a plot: the SVG element, a white background, the title."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="{font_size}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="{font_size + 11}" text-anchor="middle" font-size="{font_size + 3}">'
        f"{esc(title)}</text>",
    ]


def svg_close(path, out):
    """End the plot `out` (its lines) and write it to `path`."""
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"(plot written: {path})", file=sys.stderr)


def svg_bars(path, title, categories, series, values, y_label, x_label=None):
    """A grouped bar chart: `values[s][c]` for series s and category c (None: no bar), at least
    1,200 px wide; `x_label` names the categories below them."""
    width, height = max(1200, 90 + 22 * len(categories) * len(series)), 460
    left, right, top, bottom = 95, 20, 50, 150
    plot_w, plot_h = width - left - right, height - top - bottom
    vmax = max((v for row in values for v in row if v is not None), default=1.0)
    vmin = min((v for row in values for v in row if v is not None), default=0.0)
    lo = 0.0 if vmin >= 0 else vmin
    hi = vmax * 1.05 if vmax > 0 else 1.0
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    out = svg_open(width, height, title, 12)

    def y(v):
        return top + plot_h * (1 - (v - lo) / (hi - lo))

    raw_step = (hi - lo) / 5
    mag = 10 ** math.floor(math.log10(raw_step))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw_step)
    v = math.ceil(lo / step) * step
    while v <= hi + 1e-9:
        label = f"{v:,.0f}" if step >= 1 else f"{v:.{max(0, -math.floor(math.log10(step)))}f}"
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            f'stroke="#ddd"/><text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">'
            f"{label}</text>"
        )
        v += step
    out.append(
        f'<text transform="translate(16,{top + plot_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{esc(y_label)}</text>'
    )
    if x_label:
        out.append(f'<text x="{left + plot_w / 2}" y="{height - 40}" text-anchor="middle">{esc(x_label)}</text>')
    n_c, n_s = len(categories), len(series)
    group = plot_w / max(n_c, 1)
    bar = group * 0.8 / max(n_s, 1)
    for c, name in enumerate(categories):
        x0 = left + c * group + group * 0.1
        for s in range(n_s):
            v = values[s][c]
            if v is None:
                continue
            y0, y1 = y(max(v, 0 if lo == 0 else v)), y(0 if lo == 0 else lo)
            out.append(
                f'<rect x="{x0 + s * bar:.1f}" y="{min(y0, y1):.1f}" width="{bar * 0.95:.1f}" '
                f'height="{abs(y1 - y0):.1f}" fill="{colours[s % len(colours)]}">'
                f"<title>{esc(series[s])}: {v:,.4g}</title></rect>"
            )
        cx = left + c * group + group / 2
        out.append(
            f'<text transform="translate({cx:.1f},{top + plot_h + 12}) rotate(40)" '
            f'text-anchor="start">{esc(name)}</text>'
        )
    for s, name in enumerate(series):
        lx = left + 10 + s * 280
        out.append(
            f'<rect x="{lx}" y="{height - 22}" width="12" height="12" '
            f'fill="{colours[s % len(colours)]}"/><text x="{lx + 16}" y="{height - 12}">'
            f"{esc(name)}</text>"
        )
    svg_close(path, out)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Student's t, 97.5 % quantile, by degrees of freedom (1-30); beyond, the normal's 1.96.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    return T975[df - 1] if 1 <= df <= len(T975) else 1.96


def ci95(values):
    """(mean, half-width of the 95 % t interval of the mean; None for fewer than 2 values)."""
    values = list(values)
    m = statistics.mean(values)
    if len(values) < 2:
        return m, None
    return m, t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def verdict(mean_a, sd_a, n_a, mean_b, sd_b, n_b):
    """"above", "below" or "tie": whether a's mean differs from b's at 95 % (Welch's t, with
    the Welch-Satterthwaite degrees of freedom)."""
    if not n_a or not n_b or sd_a is None or sd_b is None or n_a < 2 or n_b < 2:
        return "–"
    va, vb = sd_a**2 / n_a, sd_b**2 / n_b
    se = math.sqrt(va + vb)
    if se == 0:
        return "tie" if mean_a == mean_b else ("above" if mean_a > mean_b else "below")
    df = (va + vb) ** 2 / ((va**2 / (n_a - 1) if n_a > 1 else 0) + (vb**2 / (n_b - 1) if n_b > 1 else 0))
    half = t975(max(1, int(df))) * se
    if mean_a - mean_b > half:
        return "above"
    if mean_b - mean_a > half:
        return "below"
    return "tie"


def bar_ends(v):
    """The ends of a point's error bar: `(mean, half)` is symmetric, `(mean, low, high)` not
    (a Wilson interval); `(mean, None)` has none."""
    if len(v) == 3:
        return v[1], v[2]
    m, h = v
    return m - (h or 0), m + (h or 0)


def svg_points(path, title, categories, series, y_label, x_label, log_x=False, x_values=None):
    """Points with 95 % error bars, a series per list: `series` is [(name, [(mean, half or
    None) or None per category], marker)], marker "o" (ours, with bars) or "d" (published).
    The y axis spans the data (not from 0), so the differences discussed are visible; 1,200 px
    wide; with `x_values` the categories are placed by value (log scale with `log_x`)."""
    width = max(1200, 120 + 70 * len(categories))
    longest = max((len(c) for c in categories), default=4)
    left, right, top = 95, 30, 50
    bottom = 70 + (0 if x_values else int(6.2 * longest))
    height = 520 + bottom - 70
    plot_w, plot_h = width - left - right, height - top - bottom
    points = [bar_ends(v) for _, vals, _ in series for v in vals if v]
    lo, hi = min(p[0] for p in points), max(p[1] for p in points)
    pad = (hi - lo) * 0.08 or abs(hi) * 0.05 or 1.0
    lo, hi = lo - pad, hi + pad
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    out = svg_open(width, height, title, 13)

    def y(v):
        return top + plot_h * (1 - (v - lo) / (hi - lo))

    if x_values:
        xs = [math.log10(v) if log_x else v for v in x_values]
        x_lo, x_hi = min(xs), max(xs)
        span = (x_hi - x_lo) or 1.0
        x_lo, x_hi = x_lo - 0.05 * span, x_hi + 0.05 * span
        pos = [left + plot_w * (x - x_lo) / (x_hi - x_lo) for x in xs]
    else:
        group = plot_w / max(len(categories), 1)
        pos = [left + group * (i + 0.5) for i in range(len(categories))]
    raw_step = (hi - lo) / 6
    mag = 10 ** math.floor(math.log10(raw_step))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw_step)
    v = math.ceil(lo / step) * step
    digits = max(0, -math.floor(math.log10(step)))
    while v <= hi + 1e-12:
        label = f"{v:,.{digits}f}"
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>'
            f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{label}</text>'
        )
        v += step
    out.append(
        f'<text transform="translate(18,{top + plot_h / 2}) rotate(-90)" text-anchor="middle">{esc(y_label)}</text>'
        f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle">{esc(x_label)}</text>'
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>'
    )
    offset = 8
    for s, (name, vals, marker) in enumerate(series):
        colour = colours[s % len(colours)]
        dx = (s - (len(series) - 1) / 2) * offset
        line = []
        for i, v in enumerate(vals):
            if not v:
                continue
            m, h = v[0], v[1]
            cx, cy = pos[i] + dx, y(m)
            line.append(f"{cx:.1f},{cy:.1f}")
            if h is not None:
                a, b = bar_ends(v)
                out.append(
                    f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(a):.1f}" y2="{y(b):.1f}" stroke="{colour}" stroke-width="1.5"/>'
                    f'<line x1="{cx - 4:.1f}" x2="{cx + 4:.1f}" y1="{y(a):.1f}" y2="{y(a):.1f}" stroke="{colour}"/>'
                    f'<line x1="{cx - 4:.1f}" x2="{cx + 4:.1f}" y1="{y(b):.1f}" y2="{y(b):.1f}" stroke="{colour}"/>'
                )
            tip = f"{name}: {m:,.4g}" + (f" ± {h:,.3g}" if len(v) == 2 and h else "")
            if marker == "d":
                out.append(
                    f'<path d="M{cx:.1f},{cy - 6:.1f} L{cx + 6:.1f},{cy:.1f} L{cx:.1f},{cy + 6:.1f} L{cx - 6:.1f},{cy:.1f} Z" '
                    f'fill="white" stroke="{colour}" stroke-width="2"><title>{esc(tip)}</title></path>'
                )
            else:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4.5" fill="{colour}"><title>{esc(tip)}</title></circle>')
        if x_values and len(line) > 1:
            out.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="{colour}" stroke-opacity="0.5"/>')
    for i, name in enumerate(categories):
        if x_values:
            out.append(f'<text x="{pos[i]:.1f}" y="{top + plot_h + 18}" text-anchor="middle">{esc(name)}</text>')
        else:
            out.append(
                f'<text transform="translate({pos[i]:.1f},{top + plot_h + 14}) rotate(-35)" text-anchor="end">{esc(name)}</text>'
            )
    for s, (name, _, marker) in enumerate(series):
        lx, ly = left + 10 + s * 380, top + 16
        colour = colours[s % len(colours)]
        shape = (
            f'<path d="M{lx + 6},{ly - 10} L{lx + 12},{ly - 4} L{lx + 6},{ly + 2} L{lx},{ly - 4} Z" fill="white" stroke="{colour}" stroke-width="2"/>'
            if marker == "d"
            else f'<circle cx="{lx + 6}" cy="{ly - 4}" r="4.5" fill="{colour}"/>'
        )
        out.append(f'{shape}<text x="{lx + 18}" y="{ly}">{esc(name)}</text>')
    svg_close(path, out)


def czech_samegame(args):
    runs = [r for r in records(args.files) if "playout" in r and "score" in r]
    totals = defaultdict(int)
    count = defaultdict(int)
    best = {}
    time_s = 0.0
    for r in runs:
        key = (r["playout"], r["formula"])
        totals[key] += r["score"]
        count[key] += 1
        best[r["board"]] = max(best.get(r["board"], 0), r["score"])
        time_s += r["time_s"]
    print("| playout | formula | boards | ours | thesis | ours − thesis | ours / thesis |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for playout, row in CZECH_TOTALS.items():
        for formula, paper in row.items():
            ours = totals.get((playout, formula))
            n = count.get((playout, formula), 0)
            print(
                f"| {playout} | {formula} | {n} | {fmt(ours)} | {fmt(paper)} | "
                f"{signed(None if ours is None else ours - paper)} | "
                f"{'–' if ours is None else f'{100 * ours / paper:.1f} %'} |"
            )
    b = sum(best.values())
    print()
    print(
        f"Best of the twelve settings per board, summed over {len(best)} boards: ours "
        f"{fmt(b)}, thesis {fmt(CZECH_BEST_OF_ALL)} ({signed(b - CZECH_BEST_OF_ALL)}, "
        f"{100 * b / CZECH_BEST_OF_ALL:.1f} %). Runs: {len(runs)}, {time_s:,.0f} s of run time."
    )
    # Rank of the formulas within each playout: the thesis's finding is about the order.
    print()
    print("| playout | order of the formulas, ours | order, thesis |")
    print("|---|---|---|")
    for playout, row in CZECH_TOTALS.items():
        ours = sorted(row, key=lambda f: -totals.get((playout, f), 0))
        paper = sorted(row, key=lambda f: -row[f])
        print(f"| {playout} | {' > '.join(ours)} | {' > '.join(paper)} |")


def sudoku(args):
    runs = [r for r in records(args.files) if r.get("table") == "grid" and "simulations" in r]
    groups = defaultdict(list)
    for r in runs:
        groups[(r["puzzle"], r["configuration"])].append(r)
    for puzzle in ["easy", "medium", "hard"]:
        rows = [(c, rs) for (p, c), rs in groups.items() if p == puzzle]
        if not rows:
            continue
        print(f"\n{puzzle}:\n")
        print("| configuration | solved | mean simulations (solved runs) | mean time (s) |")
        print("|---|---:|---:|---:|")
        for c, rs in sorted(rows, key=lambda x: order_key(x[0])):
            solved = [r for r in rs if r["solved"]]
            sims = statistics.mean(r["simulations"] for r in solved) if solved else None
            t = statistics.mean(r["time_s"] for r in rs)
            print(f"| {c} | {len(solved)}/{len(rs)} | {fmt(sims)} | {t:.2f} |")
    print(f"\nRuns: {len(runs)}, {sum(r['time_s'] for r in runs):,.0f} s of run time.")


def order_key(configuration):
    return ("amaf" in configuration.lower(), configuration)


def bait(args):
    games = [r for r in records(args.files) if "agent" in r and "level" in r]
    for g in games[:1]:
        print("(fields: " + ", ".join(sorted(g)) + ")", file=sys.stderr)
    by = defaultdict(list)
    for g in games:
        by[(g["agent"], g["level"])].append(g)
    agents = []
    for g in games:
        if g["agent"] not in agents:
            agents.append(g["agent"])
    print("| agent | level 0 | level 1 | level 2 | level 3 | level 4 | levels won | max ms |")
    print("|---|---|---|---|---|---|---:|---:|")
    for a in agents:
        cells, won = [], 0
        for lv in range(5):
            gs = by.get((a, lv), [])
            if not gs:
                cells.append("–")
                continue
            w = sum(1 for g in gs if g.get("win"))
            won += w * 2 > len(gs)
            score = statistics.mean(g.get("score", 0) for g in gs)
            ticks = statistics.mean(g.get("ticks", 0) for g in gs)
            cells.append(f"{w}/{len(gs)}, {score:g}, {ticks:.0f}")
        ms = max((g.get("max_move_ms", 0) for lv in range(5) for g in by.get((a, lv), [])), default=0)
        print(f"| {a} | " + " | ".join(cells) + f" | {won}/5 | {ms:.1f} |")


def samegame_solve(args):
    """`puzzle solve samegame --json` outputs, one file per algorithm (named by --label)."""
    labels = args.label or [p for p in args.files]
    table = {}
    for label, path in zip(labels, args.files):
        for r in records([path]):
            if "board" in r and "score" in r:
                table.setdefault(label, {})[r["board"]] = r
    boards = sorted({b for t in table.values() for b in t})
    print("| board | " + " | ".join(labels) + " |")
    print("|---:|" + "---:|" * len(labels))
    for b in boards:
        print(f"| {b} | " + " | ".join(fmt(table[l].get(b, {}).get("score")) for l in labels) + " |")
    totals = [sum(r["score"] for r in table[l].values()) for l in labels]
    print("| total | " + " | ".join(f"**{fmt(t)}**" for t in totals) + " |")
    secs = [sum(r.get("time_s", 0) for r in table[l].values()) for l in labels]
    print("| run time (s) | " + " | ".join(fmt(s) for s in secs) + " |")
    if args.plots:
        svg_bars(
            f"{args.plots}/samegame-solve-boards.svg",
            "SameGame, the 20 standard boards: score per board",
            [str(b) for b in boards],
            labels,
            [[table[l].get(b, {}).get("score") for b in boards] for l in labels],
            "score (points)",
            "board (the 20 standard boards)",
        )


def ga(args):
    labels = args.label or args.files
    print("| run | levels | solved | solved levels | mean pushes (solved) | run time (s) |")
    print("|---|---:|---:|---|---:|---:|")
    counts = []
    for label, path in zip(labels, args.files):
        levels = [r for r in records([path]) if "level" in r and "solved" in r]
        solved = [r for r in levels if r["solved"]]
        counts.append(len(solved))
        pushes = statistics.mean(r["pushes"] for r in solved) if solved else None
        names = ranges([r["level"] for r in solved])
        t = sum(r["time_s"] for r in levels)
        print(f"| {label} | {len(levels)} | {len(solved)} | {names} | {fmt(pushes, 1)} | {t:,.0f} |")
    if args.plots:
        svg_bars(
            f"{args.plots}/ga-microban-solved.svg",
            "Reactive-string GA on Microban (155 levels): levels solved",
            labels,
            ["levels solved"],
            [counts],
            "levels solved",
            "setting (one run of 5,000 generations each)",
        )


def ranges(nums):
    nums = sorted(nums)
    out, i = [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else f"{nums[i]}–{nums[j]}")
        i = j + 1
    return ", ".join(out) if out else "–"


# The generation thesis (Koczorowski 2023), Tables 3.1-3.8 (§3.2-3.9, pp. 27-30): mean best
# score and iterations per 30 s run over 10 seeds. The same figures are built into
# `puzzle experiment sokoban-gen` (crates/sokogen/src/experiment.rs); the run records do not
# carry them, so they are read from the experiment's column records when present.
def sokogen(args):
    runs = [r for r in records(args.files) if "column" in r and "seed" in r and "best_score" in r]
    columns = {}
    for r in records(args.files):
        if "thesis_best_score" in r:
            columns[(r["table"], r["column"])] = r
    by = defaultdict(list)
    order = []
    for r in runs:
        key = (r["table"], r["column"])
        if key not in by:
            order.append(key)
        by[key].append(r)
    tables = []
    for t, _ in order:
        if t not in tables:
            tables.append(t)
    cpu = sum(r.get("cpu_s") or 0 for r in runs)
    for t in tables:
        keys = [k for k in order if k[0] == t]
        print(f"\n**Table {t}**\n")
        print(
            "| column | seeds | thesis it/run | ours it/run | thesis score | ours score | "
            "ours − thesis | ours σ | thesis σ | ours t_best (s) | thesis t_best (s) | "
            "ours it/CPU-s |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for k in keys:
            rs = by[k]
            c = columns.get(k, {})
            score = statistics.mean(r["best_score"] for r in rs)
            sigma = statistics.pstdev(r["best_score"] for r in rs) if len(rs) > 1 else None
            its = statistics.mean(r["iterations"] for r in rs)
            tb = statistics.mean(r["time_to_best_s"] for r in rs)
            cpu_k = sum(r.get("cpu_s") or 0 for r in rs)
            rate = sum(r["all_iterations"] for r in rs) / cpu_k if cpu_k > 0 else None
            ts = c.get("thesis_best_score")
            print(
                f"| {k[1]} | {len(rs)} | {fmt(c.get('thesis_iterations_per_30s'))} | {fmt(its)} | "
                f"{fmt(ts, 4)} | {score:.4f} | "
                f"{signed(None if ts is None else score - ts, 4)} | {fmt(sigma, 4)} | "
                f"{fmt(c.get('thesis_sigma'), 4)} | {tb:.2f} | "
                f"{fmt(c.get('thesis_time_to_best_s'), 2)} | {fmt(rate)} |"
            )
    if args.plots:
        svg_bars(
            f"{args.plots}/{args.prefix}.svg",
            f"Tables 3.1-3.8: mean best score per column ({args.budget}) beside the thesis's",
            [f"{k[0]} {k[1]}" for k in order],
            [f"ours ({args.budget})", "thesis (30 s per run, 10 seeds)"],
            [
                [statistics.mean(r["best_score"] for r in by[k]) for k in order],
                [columns.get(k, {}).get("thesis_best_score") for k in order],
            ],
            "mean best score",
        )
    seeds = sorted({r["seed"] for r in runs})
    print(f"\nRuns: {len(runs)} (seeds {ranges(seeds)}), {cpu:,.0f} CPU-s.")


def request_of(path):
    """The request of a run's header line (`puzzle experiment … --shard I/N --json`), or {}."""
    with open(path) as f:
        first = f.readline()
    try:
        return json.loads(first).get("request", {})
    except json.JSONDecodeError:
        return {}


def czech_scaling(args):
    """The Czech thesis's §3.4.1 (its Figure 8): the total over the 20 boards against the
    simulations per board, one setting, several seeds: mean ± 95 % per simulation count."""
    totals, cpu = defaultdict(list), defaultdict(float)
    setting = None
    for path in args.files:
        req = request_of(path)
        runs = [r for r in records([path]) if "board" in r and "score" in r]
        if not req or not runs:
            continue
        setting = f"{runs[0]['playout']}, {runs[0]['formula']}"
        totals[req["iterations"]].append(sum(r["score"] for r in runs))
        cpu[req["iterations"]] += sum(r["time_s"] for r in runs)
    counts = sorted(totals)
    print(f"Setting: {setting}; 20 boards per run.\n")
    print("| simulations per board | runs (seeds) | total over 20 boards: mean ± 95 % | lowest – highest | run time (s) |")
    print("|---:|---:|---:|---:|---:|")
    for n in counts:
        m, h = ci95(totals[n])
        print(f"| {n:,} | {len(totals[n])} | {fmt(m)} ± {fmt(h)} | {fmt(min(totals[n]))} – {fmt(max(totals[n]))} | {fmt(cpu[n])} |")
    if args.plots:
        thesis = CZECH_TOTALS.get(setting.split(", ")[0], {}).get(setting.split(", ")[1]) if setting else None
        svg_points(
            f"{args.plots}/{args.prefix}.svg",
            f"SameGame ({setting}): total over the 20 boards against simulations per board, 95 % intervals",
            [f"{n // 1000:,}k" if n < 1_000_000 else f"{n / 1e6:g}M" for n in counts],
            [
                (f"ours, {max(len(v) for v in totals.values())} seeds", [ci95(totals[n]) for n in counts], "o"),
                ("thesis §3.4 at 700k (its Figure 8 gives no numbers)", [(thesis, None) if n == 700_000 and thesis else None for n in counts], "d"),
            ],
            "total score, 20 boards",
            "simulations per board (log scale)",
            log_x=True,
            x_values=counts,
        )


def czech_samegame_ci(args):
    """The twelve settings' totals over the 20 boards with a 95 % interval over the runs (one
    file per seed, named by --label), and each setting against its playout's best formula by
    the paired differences of their scores on the same board and seed (a 95 % t interval of the
    mean difference, times 20 for the total; a ranking it does not support is a tie)."""
    labels = args.label or [str(i + 1) for i in range(len(args.files))]
    totals = defaultdict(list)
    scores = defaultdict(dict)  # setting -> {(file, board): score}
    for i, path in enumerate(args.files):
        per = defaultdict(int)
        for r in records([path]):
            if "board" in r and "score" in r:
                per[(r["playout"], r["formula"])] += r["score"]
                scores[(r["playout"], r["formula"])][(i, r["board"])] = r["score"]
        for key, total in per.items():
            totals[key].append(total)
    print(f"Runs: seeds {', '.join(labels)}.\n")
    print("| playout | formula | runs | ours: total ± 95 % | thesis (one run) | against the playout's best: total difference ± 95 % (paired by board) | verdict |")
    print("|---|---|---:|---:|---:|---:|---|")
    series, cats = [[], []], []
    for playout, row in CZECH_TOTALS.items():
        best = max(row, key=lambda f: statistics.mean(totals.get((playout, f), [0])))
        for formula, paper in row.items():
            v = totals.get((playout, formula), [])
            if not v:
                continue
            m, h = ci95(v)
            if formula == best:
                diff, verdict_text = "–", "best"
            else:
                mine, top = scores[(playout, formula)], scores[(playout, best)]
                d = [mine[k] - top[k] for k in mine if k in top]
                dm, dh = ci95(d)
                boards = len({k[1] for k in mine})
                diff = f"{signed(dm * boards)} ± {fmt(dh * boards)}"
                verdict_text = "below" if dm + dh < 0 else ("above" if dm - dh > 0 else "tie")
            print(
                f"| {playout} | {formula} | {len(v)} | {fmt(m)} ± {fmt(h)} | {fmt(paper)} | {diff} | {verdict_text} |"
            )
            cats.append(f"{playout} {formula}")
            series[0].append((m, h))
            series[1].append((paper, None))
    if args.plots:
        svg_points(
            f"{args.plots}/{args.prefix}.svg",
            "SameGame, 700,000 simulations per board: total over the 20 boards per setting, 95 % intervals",
            cats,
            [(f"ours, {len(args.files)} seeds", series[0], "o"), ("thesis (one run)", series[1], "d")],
            "total score, 20 boards",
            "playout policy and selection formula",
        )


def settings_by_label(args, value_of):
    """{setting: {(run, item): value}} from files named by --label (files with the same label
    are that setting's runs, one seed each, in order) and `value_of(record)` -> (item, value)
    or None."""
    labels = args.label or args.files
    if len(labels) != len(args.files):
        sys.exit("give one --label per file")
    runs_seen = defaultdict(int)
    values = {}
    for label, path in zip(labels, args.files):
        run = runs_seen[label]
        runs_seen[label] += 1
        table = values.setdefault(label, {})
        for r in records([path]):
            got = value_of(r)
            if got is not None:
                table[(run, got[0])] = got[1]
    return values


def paired_table(values, what, unit_items, plots=None, plot_title=None, plot_name=None, y_label=None):
    """Each setting's total per run with a 95 % t interval over its runs, and its difference
    from the setting of the best mean total, paired by item and run (a 95 % t interval of the
    mean paired difference times the items per run); a difference the interval does not
    separate from 0 is a tie. Prints a Markdown table, optionally a points plot."""
    totals = {}
    for label, table in values.items():
        per = defaultdict(float)
        for (run, _), v in table.items():
            per[run] += v
        totals[label] = [per[r] for r in sorted(per)]
    best = max(totals, key=lambda l: statistics.mean(totals[l]))
    print(f"| setting | runs | {what}: mean ± 95 % | against {best}: difference ± 95 % (paired by {unit_items} and run) | verdict |")
    print("|---|---:|---:|---:|---|")
    points = []
    means = [statistics.mean(t) for t in totals.values()]
    digits = 1 if any(abs(m) < 1000 and not float(m).is_integer() for m in means) else 0
    for label, tot in totals.items():
        m, h = ci95(tot)
        if label == best:
            diff, word = "–", "best"
        else:
            mine, top = values[label], values[best]
            d = [mine[k] - top[k] for k in mine if k in top]
            items = len({k[1] for k in mine})
            dm, dh = ci95(d)
            diff = f"{signed(dm * items, 1)} ± {fmt(dh * items, 1)}" if dh is not None else signed(dm * items, 1)
            word = "tie" if dh is None or abs(dm) <= dh else ("below" if dm < 0 else "above")
        print(f"| {label} | {len(tot)} | {fmt(m, digits)} ± {fmt(h, 1) if h is not None else '–'} | {diff} | {word} |")
        points.append((m, h))
    if plots:
        svg_points(
            f"{plots}/{plot_name}.svg",
            plot_title,
            list(totals),
            [(f"ours, mean of the runs with 95 % intervals", points, "o")],
            y_label,
            "setting",
        )


def samegame_solve_ci(args):
    """The SameGame report's settings over several seeds: total over the 20 boards per run."""
    values = settings_by_label(
        args, lambda r: (r["board"], r["score"]) if "board" in r and "score" in r else None
    )
    paired_table(
        values, "total over the 20 boards", "board", args.plots,
        "SameGame, 700,000 playouts per board: total over the 20 boards, 95 % intervals over the seeds",
        "samegame-solve-ci", "total score, 20 boards",
    )


def ga_ci(args):
    """The GA's settings over several seeds: Microban levels solved per run."""
    values = settings_by_label(
        args,
        lambda r: (r["level"], 1.0 if r["solved"] else 0.0) if "level" in r and "solved" in r else None,
    )
    paired_table(
        values, "levels solved of 155", "level", args.plots,
        "Reactive-string GA on Microban: levels solved per run, 95 % intervals over the seeds",
        "ga-microban-ci", "levels solved (of 155)",
    )


def wilson(k, n):
    """The 95 % Wilson score interval of a proportion k/n, as (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def bait_ci(args):
    """Wins per agent and level over all games of the files, with 95 % Wilson intervals."""
    games = [r for r in records(args.files) if "agent" in r and "level" in r]
    by = defaultdict(list)
    agents = []
    for g in games:
        by[(g["agent"], g["level"])].append(g)
        if g["agent"] not in agents:
            agents.append(g["agent"])
    print("| agent | " + " | ".join(f"level {lv}: wins (95 %)" for lv in range(5)) + " | all levels |")
    shares = []
    print("|---|" + "---|" * 6)
    for a in agents:
        cells, k_all, n_all = [], 0, 0
        for lv in range(5):
            gs = by.get((a, lv), [])
            k = sum(1 for g in gs if g.get("win"))
            lo, hi = wilson(k, len(gs))
            k_all, n_all = k_all + k, n_all + len(gs)
            cells.append(f"{k}/{len(gs)} ({100 * lo:.0f}–{100 * hi:.0f} %)" if gs else "–")
        lo, hi = wilson(k_all, n_all)
        print(f"| {a} | " + " | ".join(cells) + f" | {k_all}/{n_all} ({100 * lo:.0f}–{100 * hi:.0f} %) |")
        shares.append((100 * k_all / max(n_all, 1), 100 * lo, 100 * hi))
    if args.plots:
        svg_points(
            f"{args.plots}/bait-ci.svg",
            "Bait: share of games won over the five levels per agent, 95 % Wilson intervals",
            agents,
            [("games won (%)", shares, "o")],
            "games won (%)",
            "agent (40 ms of CPU per move)",
        )


def sudoku_ci(args):
    """The Sudoku grid with intervals: solved runs (95 % Wilson) and simulations per run, the
    unsolved counted at the limit (so a lower bound of their cost), with a 95 % t interval, and
    each configuration against the puzzle's best by Welch's test on those simulations."""
    runs = [r for r in records(args.files) if r.get("table") == "grid" and "simulations" in r]
    groups = defaultdict(list)
    for r in runs:
        groups[(r["puzzle"], r["configuration"])].append(r)
    for puzzle in ["easy", "medium", "hard"]:
        rows = sorted(((c, rs) for (p, c), rs in groups.items() if p == puzzle), key=lambda x: order_key(x[0]))
        if not rows:
            continue
        sims = {c: [r["simulations"] for r in rs] for c, rs in rows}
        best = min(sims, key=lambda c: statistics.mean(sims[c]))
        print(f"\n{puzzle}:\n")
        print(f"| configuration | solved (95 %) | simulations per run ± 95 % | against {best} |")
        print("|---|---:|---:|---|")
        for c, rs in rows:
            k = sum(1 for r in rs if r["solved"])
            lo, hi = wilson(k, len(rs))
            m, h = ci95(sims[c])
            if c == best:
                word = "best"
            else:
                b = sims[best]
                word = verdict(m, statistics.stdev(sims[c]), len(rs), statistics.mean(b), statistics.stdev(b), len(b))
                word = {"above": "more", "below": "fewer", "tie": "tie"}.get(word, word)
            print(f"| {c} | {k}/{len(rs)} ({100 * lo:.0f}–{100 * hi:.0f} %) | {fmt(m)} ± {fmt(h)} | {word} |")
        # Pseudo-random against random playouts with the same selection (and AMAF).
        pairs = [(c, c.replace("pseudo", "random", 1)) for c in sims if c.startswith("pseudo")]
        pairs = [(a, b) for a, b in pairs if b in sims]
        if pairs:
            print(f"\n| {puzzle}: pseudo-random against random playouts | pseudo − random, simulations per run | verdict |")
            print("|---|---:|---|")
            for a, b in pairs:
                ma, mb = statistics.mean(sims[a]), statistics.mean(sims[b])
                word = verdict(ma, statistics.stdev(sims[a]), len(sims[a]), mb, statistics.stdev(sims[b]), len(sims[b]))
                word = {"above": "pseudo needs more", "below": "pseudo needs fewer", "tie": "tie"}.get(word, word)
                print(f"| {a[len('pseudo / '):]} | {signed(ma - mb)} | {word} |")


def svg_panels(path, title, x_label, xs, panels):
    """Stacked line panels over one x axis, at least 1,200 px wide: `panels` is [(y label,
    colour, ys, extra lines [(label, [(x, y), ...])])]; each panel's y axis spans its data."""
    width, panel_h, left, right, top = 1200, 260, 100, 30, 50
    height = top + len(panels) * (panel_h + 40) + 50
    plot_w = width - left - right
    x_lo, x_hi = min(xs), max(xs)
    x_span = (x_hi - x_lo) or 1.0
    out = svg_open(width, height, title, 13)

    def nice_step(span, n):
        raw = span / n if span > 0 else 1.0
        mag = 10 ** math.floor(math.log10(raw))
        return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)

    def px(x):
        return left + plot_w * (x - x_lo) / x_span

    for k, (label, colour, ys, extras) in enumerate(panels):
        y0 = top + k * (panel_h + 40)
        lo, hi = min(ys), max(ys)
        for _, pts in extras:
            lo, hi = min([lo] + [p[1] for p in pts]), max([hi] + [p[1] for p in pts])
        pad = (hi - lo) * 0.05 or abs(hi) * 0.05 or 1.0
        lo, hi = lo - pad, hi + pad

        def py(v):
            return y0 + panel_h * (1 - (v - lo) / (hi - lo))

        step = nice_step(hi - lo, 5)
        v = math.ceil(lo / step) * step
        digits = max(0, -math.floor(math.log10(step)))
        while v <= hi + 1e-12:
            out.append(
                f'<line x1="{left}" x2="{left + plot_w}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="#e5e5e5"/>'
                f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v:,.{digits}f}</text>'
            )
            v += step
        out.append(
            f'<rect x="{left}" y="{y0}" width="{plot_w}" height="{panel_h}" fill="none" stroke="#999"/>'
            f'<text transform="translate(18,{y0 + panel_h / 2}) rotate(-90)" text-anchor="middle">{esc(label)}</text>'
        )
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="0.8"/>')
        for name, line in extras:
            pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in line)
            out.append(f'<polyline points="{pts}" fill="none" stroke="black" stroke-width="1.5" stroke-dasharray="6,4"/>')
            out.append(f'<text x="{left + plot_w - 8}" y="{y0 + 16}" text-anchor="end">{esc(name)}</text>')
        xstep = nice_step(x_span, 8)
        v = math.ceil(x_lo / xstep) * xstep
        while v <= x_hi + 1e-9:
            out.append(f'<text x="{px(v):.1f}" y="{y0 + panel_h + 16}" text-anchor="middle">{v:,.0f}</text>')
            v += xstep
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 14}" text-anchor="middle">{esc(x_label)}</text>')
    svg_close(path, out)


def gen_trace(args):
    """The generation thesis's §3.10 per-iteration trace (its Figures 3.2 and 3.3) from a
    `puzzle generate sokoban --sample-every N --json` summary line: iteration time and tree
    memory, rollout depth and best score, against the iteration."""
    summaries = [r for r in records(args.files) if r.get("summary") and r.get("samples")]
    if not summaries:
        sys.exit("no summary line with samples (run with --sample-every)")
    samples = summaries[-1]["samples"]
    xs = [x["iteration"] for x in samples]
    us = [x["duration_ns"] / 1000 for x in samples]
    mb = [x["tree_bytes"] / 2**20 for x in samples]
    depth = [x["depth"] for x in samples]
    best = [x["best_score"] if x["best_score"] is not None else 0.0 for x in samples]
    n = len(xs)
    mx, mu = statistics.mean(xs), statistics.mean(us)
    slope = sum((x - mx) * (u - mu) for x, u in zip(xs, us)) / max(sum((x - mx) ** 2 for x in xs), 1e-12)
    fit = [(xs[0], mu + slope * (xs[0] - mx)), (xs[-1], mu + slope * (xs[-1] - mx))]
    first_best = next(x["iteration"] for x in samples if x["best_score"] == samples[-1]["best_score"])
    print("| measure | value |")
    print("|---|---:|")
    print(f"| sampled iterations | {n:,} (every {xs[1] - xs[0]:,}, of {summaries[-1]['iterations']:,}) |")
    print(f"| iteration time, mean / median | {mu:.2f} µs / {statistics.median(us):.2f} µs |")
    print(f"| regression slope of the iteration time | {slope * 1e5:+.3f} µs per 100,000 iterations |")
    print(f"| tree memory at the end | {mb[-1]:,.1f} MiB ({samples[-1]['nodes']:,} nodes) |")
    print(f"| rollout depth, mean (min–max) | {statistics.mean(depth):.2f} ({min(depth)}–{max(depth)}) |")
    print(f"| best score at the end, first sampled at | {samples[-1]['best_score']:.4f}, iteration {first_best:,} |")
    if args.plots:
        svg_panels(
            f"{args.plots}/{args.prefix}-3.2.svg",
            "Iteration time and the search tree's memory (after the thesis's Figure 3.2)",
            "iteration",
            xs,
            [
                ("iteration time (µs)", "#d62728", us, [("regression line", fit)]),
                ("tree memory (MiB)", "#1f77b4", mb, []),
            ],
        )
        svg_panels(
            f"{args.plots}/{args.prefix}-3.3.svg",
            "Rollout depth and best score (after the thesis's Figure 3.3)",
            "iteration",
            xs,
            [
                ("tree depth where the rollout began", "#e6a700", depth, []),
                ("best score so far", "#2ca02c", best, []),
            ],
        )


# The thesis's runs per column: "10 Iterationen" (§3, p. 26; one iteration = one run with a new
# seed), and "30 Iterationen" for Tables 3.7 and 3.8 (§3.8, §3.9).
THESIS_RUNS = {"3.7": 30, "3.8": 30}


def sokogen_ci(args):
    """Tables with 95 % intervals: ours per column (t interval over the seeds), the thesis's from
    its mean and σ over its runs, Welch's verdict ours against the thesis, and each column against
    the table's best, paired by seed (a ranking the interval does not support is a tie)."""
    runs = [r for r in records(args.files) if "column" in r and "seed" in r and "best_score" in r]
    if args.tables:
        runs = [r for r in runs if r["table"] in args.tables.split(",")]
    columns = {}
    for r in records(args.files):
        if "thesis_best_score" in r:
            columns[(r["table"], r["column"])] = r
    by, order = defaultdict(list), []
    for r in runs:
        key = (r["table"], r["column"])
        if key not in by:
            order.append(key)
        by[key].append(r)
    # A tree fills its budget when it is within one block of children of it (the experiment's
    # own rule, `RunFigures::filled_node_budget`), recomputed here from the peak so that records
    # written before that rule count alike; the budget is the default 8,000,000 nodes.
    budget = 8_000_000
    capped = sum(1 for r in runs if r.get("peak_nodes", 0) + min(4096, budget // 64) >= budget)
    seen = sum(1 for r in runs if "peak_nodes" in r)
    if args.title:
        print(f"# Tables {args.title}, with 95 % intervals\n")
        print(
            "Ours: the mean best score over the seeds with its 95 % t interval; the thesis's: its mean with\n"
            "the interval from its σ over its runs (10, or 30 in Tables 3.7 and 3.8). \"Ours against the\n"
            "thesis\" is Welch's test at 95 %; \"against the table's best\" compares each column with the\n"
            "table's best column seed by seed (the 95 % t interval of the paired differences): \"tie with the\n"
            "best\" where that interval reaches 0. Generated by `scripts/results.py sokogen-ci` from the runs\n"
            "in [raw/](../raw/) ([the report](../sokoban-generation.md))."
        )
    for t in dict.fromkeys(k[0] for k in order):
        keys = [k for k in order if k[0] == t]
        n_thesis = THESIS_RUNS.get(t, 10)
        stats = {}
        for k in keys:
            scores = [r["best_score"] for r in by[k]]
            m, h = ci95(scores)
            stats[k] = (m, statistics.stdev(scores) if len(scores) > 1 else None, len(scores), h)
        best = max(keys, key=lambda k: stats[k][0])
        print(f"\n**Table {t}** (thesis: {n_thesis} runs per column)\n")
        print("| column | runs | ours: mean ± 95 % | thesis: mean ± 95 % | ours against the thesis | against the table's best |")
        print("|---|---:|---:|---:|---|---|")
        for k in keys:
            m, sd, n, h = stats[k]
            c = columns.get(k, {})
            ts, tsd = c.get("thesis_best_score"), c.get("thesis_sigma")
            th = t975(n_thesis - 1) * tsd / math.sqrt(n_thesis) if tsd is not None else None
            vs_thesis = verdict(m, sd, n, ts, tsd, n_thesis) if ts is not None else "–"
            if k == best:
                vs_best = "best"
            else:
                # Paired by seed: every column ran the same seeds.
                mine = {r["seed"]: r["best_score"] for r in by[k]}
                top = {r["seed"]: r["best_score"] for r in by[best]}
                dm, dh = ci95([mine[x] - top[x] for x in mine if x in top])
                vs_best = "–" if dh is None else ("tie" if dm + dh >= 0 else "below")
            print(
                f"| {k[1]} | {n} | {m:.4f} ± {fmt(h, 4)} | {fmt(ts, 4)} ± {fmt(th, 4)} | {vs_thesis} | "
                f"{'tie with the best' if vs_best == 'tie' else vs_best} |"
            )
        if args.plots and args.title:
            print(
                f"\n![Table {t}: ours and the thesis's means with 95 % intervals]"
                f"({args.prefix}-table-{t}.svg)"
            )
        if args.plots:
            svg_points(
                f"{args.plots}/{args.prefix}-table-{t}.svg",
                f"Table {t}: mean best score per column, 95 % intervals ({args.budget})",
                [k[1] for k in keys],
                [
                    (f"ours ({args.budget}), {stats[keys[0]][2]} seeds", [stats[k][0:1] + (stats[k][3],) for k in keys], "o"),
                    (
                        f"thesis ({n_thesis} runs of 30 s)",
                        [
                            (columns[k]["thesis_best_score"], t975(n_thesis - 1) * columns[k]["thesis_sigma"] / math.sqrt(n_thesis))
                            if k in columns else None
                            for k in keys
                        ],
                        "d",
                    ),
                ],
                "mean best score",
                f"Table {t}: column",
            )
    seeds = sorted({r["seed"] for r in runs})
    cpu = sum(r.get("cpu_s") or 0 for r in runs)
    cap = f"; {capped} of {seen} recorded runs filled the node budget" if seen else ""
    print(f"\nRuns: {len(runs)} (seeds {ranges(seeds)}), {cpu:,.0f} CPU-s{cap}.")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "what",
        choices=[
            "czech-samegame", "czech-samegame-ci", "czech-scaling", "sudoku", "bait", "samegame-solve", "ga",
            "sokogen", "sokogen-ci", "samegame-solve-ci", "ga-ci", "bait-ci", "sudoku-ci", "gen-trace",
        ],
    )
    p.add_argument("files", nargs="+")
    p.add_argument("--plots", help="write SVG plots into this directory")
    p.add_argument(
        "--label", action="append",
        help="a name per file (samegame-solve, ga; with -ci: files with the same name are one setting's seeds)",
    )
    p.add_argument("--prefix", default="sokogen", help="sokogen: plot file prefix")
    p.add_argument("--budget", default="ours", help="sokogen: what bounded our runs, for the plot")
    p.add_argument("--tables", help="sokogen-ci: only these tables, comma-separated")
    p.add_argument("--title", help="sokogen-ci: print a page: this title's header, each table's plot after it")
    args = p.parse_args()
    {
        "czech-samegame": czech_samegame,
        "sudoku": sudoku,
        "bait": bait,
        "samegame-solve": samegame_solve,
        "ga": ga,
        "sokogen": sokogen,
        "sokogen-ci": sokogen_ci,
        "czech-scaling": czech_scaling,
        "czech-samegame-ci": czech_samegame_ci,
        "samegame-solve-ci": samegame_solve_ci,
        "ga-ci": ga_ci,
        "bait-ci": bait_ci,
        "sudoku-ci": sudoku_ci,
        "gen-trace": gen_trace,
    }[args.what.replace("_", "-")](args)


if __name__ == "__main__":
    main()
