"""The extension's type stubs say what the registry says: one ``run`` and one ``events``
overload per job, with exactly the options of its request (``crates/python/stubgen.py``
writes them; ``.ci/run`` also checks the stubs against the extension with mypy's stubtest)."""

import importlib.util
import pathlib
import re

import puzzle_search

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _stubgen():
    spec = importlib.util.spec_from_file_location("stubgen", ROOT / "stubgen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_job_overloads_are_the_registry_s():
    stubgen = _stubgen()
    current = stubgen.STUB.read_text()
    assert stubgen.stub_text(current, puzzle_search.jobs()) == current, (
        "the stub's job overloads are stale: run python crates/python/stubgen.py"
    )


def test_each_overload_takes_exactly_its_job_s_options():
    text = _stubgen().STUB.read_text()
    for job in puzzle_search.jobs():
        name = job["name"]
        block = re.search(
            r'def run\(\n    job: Literal\["' + name + r'"\],\n(.*?)\) ->', text, re.S
        )
        assert block, name
        params = re.findall(r"^    (\w+):", block.group(1), re.M)
        assert params == ["on_event", *job["schema"]["properties"]], name
    # A budget setting a job does not read is not offered (and the job refuses it).
    bait = re.search(r'job: Literal\["bait_play"\],(.*?)\) ->', text, re.S)
    assert bait and "time_limit" not in bait.group(1)
