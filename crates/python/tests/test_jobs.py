"""The jobs from Python: the registry's list, running jobs, errors, stopping."""

import random
import signal
import time

import pytest

import puzzle_search


def test_jobs_lists_the_registry():
    jobs = puzzle_search.jobs()
    assert len(jobs) == 16
    names = [job["name"] for job in jobs]
    assert len(set(names)) == 16
    for name in ("sokoban_solve", "sokoban_rate", "sokoban_generate", "samegame_solve", "sudoku_solve", "bait_play"):
        assert name in names
    for job in jobs:
        assert job["title"]
        assert job["schema"]["type"] == "object"


def replay_samegame(rows, moves):
    """Replay `moves` ({"col", "row"} from the top-left) on a board of colour rows (top first,
    0 = empty) with the standard scoring: (n - 2)² per group, +1000 for clearing it."""
    height, width = len(rows), len(rows[0])
    # columns[c] lists the stones of column c from the bottom up
    columns = [[rows[r][c] for r in reversed(range(height)) if rows[r][c]] for c in range(width)]
    score = 0
    for move in moves:
        col, row = move["col"], height - 1 - move["row"]
        colour = columns[col][row]
        group, todo = set(), [(col, row)]
        while todo:
            c, r = todo.pop()
            if (c, r) in group or not (0 <= c < len(columns) and 0 <= r < len(columns[c])):
                continue
            if columns[c][r] != colour:
                continue
            group.add((c, r))
            todo += [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]
        assert len(group) >= 2, f"move {move} removes a single stone"
        score += (len(group) - 2) ** 2
        columns = [[s for r, s in enumerate(column) if (c, r) not in group] for c, column in enumerate(columns)]
        columns = [column for column in columns if column]
    if not columns:
        score += 1000
    return score


def test_samegame_solve_random_board():
    events = puzzle_search.run("samegame_solve", random="6x6x3", iterations=300)
    results = [e for e in events if e["kind"] == "result"]
    assert len(results) == 1
    result = results[0]
    assert result["score"] > 0
    assert result["moves"]
    for move in result["moves"]:
        assert 0 <= move["col"] < 6 and 0 <= move["row"] < 6
    assert events[-1]["kind"] == "summary"


def test_samegame_solve_moves_replay():
    rng = random.Random(7)
    rows = [[rng.randint(1, 3) for _ in range(6)] for _ in range(6)]
    text = "# problem 01\n" + "".join("".join(str(s - 1) for s in row) + "\n" for row in rows)
    events = puzzle_search.run("samegame_solve", text=text, iterations=300, seed=1)
    (result,) = [e for e in events if e["kind"] == "result"]
    assert result["score"] > 0
    assert replay_samegame(rows, result["moves"]) == result["score"]


def test_bad_options_raise_value_error_naming_them():
    with pytest.raises(ValueError, match="iteratons"):
        puzzle_search.run("samegame_solve", random="6x6x3", iteratons=300)
    with pytest.raises(ValueError, match="iterations"):
        puzzle_search.run("samegame_solve", random="6x6x3", iterations="many")
    with pytest.raises(ValueError, match="threads"):
        puzzle_search.run("samegame_solve", random="6x6x3", threads=0)
    with pytest.raises(ValueError, match="no_such_job"):
        puzzle_search.run("no_such_job")


def test_parse_errors_carry_line_and_column():
    with pytest.raises(ValueError, match="line 2"):
        puzzle_search.run("sokoban_solve", xsb="#####\n#@$X#\n#####\n")


def test_on_event_sees_every_event_and_progress_is_not_returned():
    seen = []
    events = puzzle_search.run(
        "sokoban_generate", on_event=seen.append, width=5, height=5, iterations=3000, seed=2, threads=1
    )
    assert [e for e in seen if e["kind"] != "progress"] == events
    assert all(e["kind"] in ("progress", "result", "summary") for e in seen)
    assert all("xsb" in e for e in events if e["kind"] == "result")


def test_an_exception_from_on_event_stops_the_job():
    def fail(event):
        raise LookupError("enough")

    start = time.monotonic()
    with pytest.raises(LookupError, match="enough") as caught:
        puzzle_search.run("sokoban_generate", on_event=fail, time_limit=60.0, threads=1)
    assert time.monotonic() - start < 20
    assert isinstance(caught.value.events, list)


def test_keyboard_interrupt_stops_the_job_and_is_raised_again():
    # A real signal, as Ctrl-C sends: the kernel delivers it after 0.5 s whatever the threads do
    # (a Python thread calling `_thread.interrupt_main` needs the GIL, which a run consuming a
    # fast stream of events hardly gives up). Its handler is Ctrl-C's.
    previous = signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            puzzle_search.run("sokoban_generate", time_limit=60.0, threads=1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - start < 20
    # the stopped job's summary says so
    summaries = [e for e in caught.value.events if e["kind"] == "summary"]
    assert summaries and summaries[-1]["interrupted"]


def test_events_iterates_over_every_event_in_order():
    options = dict(random="6x6x3", iterations=300, seed=4, threads=1)
    streamed = list(puzzle_search.events("samegame_solve", **options))
    kinds = [e["kind"] for e in streamed]
    assert kinds[-1] == "summary" and "result" in kinds
    collected = puzzle_search.run("samegame_solve", **options)
    strip = lambda e: {k: v for k, v in e.items() if not k.startswith("time")}
    assert [strip(e) for e in streamed if e["kind"] != "progress"] == [strip(e) for e in collected]


def test_events_stop_ends_a_long_job_with_its_summary():
    started = time.perf_counter()
    with puzzle_search.events("sokoban_generate", width=7, height=7, time_limit=60, threads=1) as run:
        seen = []
        for event in run:
            seen.append(event)
            if len(seen) == 1:
                run.stop()
    assert time.perf_counter() - started < 30
    assert seen[-1]["kind"] == "summary"


def test_events_raise_the_jobs_parse_error_at_the_end():
    run = puzzle_search.events("sokoban_solve", xsb="#####\n#@$x#\n#####\n")
    with pytest.raises(ValueError, match="line 2"):
        list(run)


def test_aimed_generation_and_rating_agree_on_the_optimal_pushes():
    """The default generation proves each level's push count; the rating job's A* agrees."""
    levels = [
        e
        for e in puzzle_search.run(
            "sokoban_generate", width=6, height=6, boxes=3, min_pushes=8, max_pushes=14, iterations=300, seed=4, threads=1
        )
        if e["kind"] == "result"
    ]
    assert levels
    text = "\n".join(level["xsb"] for level in levels)
    rated = [e for e in puzzle_search.run("sokoban_rate", xsb=text, count_positions=0) if e["kind"] == "result"]
    assert [r["optimal_pushes"] for r in rated] == [level["optimal_pushes"] for level in levels]
    assert all(8 <= level["optimal_pushes"] <= 14 for level in levels)
