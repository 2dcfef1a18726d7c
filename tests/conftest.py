"""Suite-wide test settings."""

import json
import os
import resource
import time
from pathlib import Path

import pytest
from hypothesis import settings

# Speed is measured by the benchmarks in tests/bench, never by a unit test: hypothesis's
# per-example deadline would make a correct test fail on a busy machine.
settings.register_profile("chicago", deadline=None)
settings.load_profile("chicago")

# tmp_path and tmp_path_factory on tmpfs (/dev/shm) when there is one (issue 15): the
# suite's SQLite logs commit with synchronous=FULL, and on a busy shared disk every fsync
# waits for other people's writes; on tmpfs the files are as real (the same SQLite, WAL, a
# killed process leaves what it committed) and an fsync costs nothing.  pytest reads this
# variable ("Temporary directory location and retention" in its docs) the first time a
# test asks for a temporary folder; xdist's workers get sub-folders of the controller's.
# An explicit --basetemp, or the variable set by the caller, wins.
if "PYTEST_DEBUG_TEMPROOT" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    os.environ["PYTEST_DEBUG_TEMPROOT"] = "/dev/shm"

# One OpenCV thread per test process (pytest-xdist runs one worker per core; child
# processes inherit the variable): the photo reader's networks would otherwise take
# every core and starve the live-table tests, whose virtual firmware keeps real time
# (its debounce and "card gone" timers) and whose bots wait for sensing to follow.
import cv2  # noqa: E402

os.environ.setdefault("OPENCV_FOR_THREADS_NUM", "1")
cv2.setNumThreads(1)


# The longest tests first (issue 15).  `make test` runs the suite on three xdist workers
# (`--dist worksteal`); a long test that starts last keeps one core busy while the other
# idles.  Started first, the long ones overlap everything else, and the short ones at the
# end even the workers out.  tests/durations.json holds each test's seconds from a
# recorded run (`pytest --store-durations`, best on a quiet machine; a run of some folders
# updates their tests), tests under a second left out.  A module goes as early as its
# longest test, and its tests stay together in their own order (its module fixtures are
# made once); a test the file does not list counts as short.  Only the order changes.
DURATIONS = Path(__file__).with_name("durations.json")


def pytest_addoption(parser):
    parser.addoption(
        "--store-durations",
        action="store_true",
        help="write each test's seconds in this run to tests/durations.json (the suite's order)",
    )
    parser.addoption(
        "--cpu-report",
        metavar="FILE",
        help="write each test's CPU seconds (its process and the children it waited for, setup "
        "and teardown included), wall seconds and start (Unix time) to FILE as JSON: [cpu, wall, "
        "start]; the CPU is the cost of a test whatever the load, the rest of the wall is waiting "
        "(issue 15); the starts show which tests ran side by side.  The process tree counts a "
        "child's CPU when the child is waited for: of chromium's (about a third of the suite's "
        "CPU) only a part comes, when a module's browser closes, charged to the module's last test. "
        "With one worker (-p no:xdist) a fourth figure is the whole machine's CPU seconds during "
        "the test (/proc/stat), which has it test by test",
    )


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _known() -> dict[str, float]:
    return json.loads(DURATIONS.read_text(encoding="utf-8")) if DURATIONS.is_file() else {}


def pytest_collection_modifyitems(config, items):
    # A browser runs on the wall clock too: "-m 'not realtime'" leaves only simulated
    # and fake-clock tests (issue 15).
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.realtime)
    longest: dict[str, float] = {}
    for nodeid, seconds in _known().items():
        longest[_module(nodeid)] = max(longest.get(_module(nodeid), 0.0), float(seconds))
    items.sort(key=lambda item: -longest.get(_module(item.nodeid), 0.0))  # stable: the rest keeps its order


_spent: dict[str, float] = {}
_cpu: dict[str, list[float]] = {}


def _machine_cpu() -> float:
    """The whole machine's busy CPU seconds so far (Linux /proc/stat; 0 elsewhere)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields)
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _cpu_now() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not item.config.getoption("cpu_report"):
        yield
        return
    alone = not hasattr(item.config, "workerinput")  # no other worker on the machine's figure
    before, start, at, machine = _cpu_now(), time.monotonic(), time.time(), _machine_cpu()
    yield
    _cpu[item.nodeid] = [round(_cpu_now() - before, 3), round(time.monotonic() - start, 3), round(at, 2)]
    if alone:
        _cpu[item.nodeid].append(round(_machine_cpu() - machine, 2))


def pytest_runtest_logreport(report):
    # on xdist's controller too: the workers' reports come back to it
    _spent[report.nodeid] = _spent.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    config = session.config
    report = config.getoption("cpu_report")
    if report:  # one file per xdist worker: FILE.gw0, FILE.gw1
        worker = getattr(config, "workerinput", {}).get("workerid")
        Path(f"{report}.{worker}" if worker else report).write_text(json.dumps(_cpu, indent=1), encoding="utf-8")
    if not config.getoption("store_durations") or hasattr(config, "workerinput"):
        return
    known = _known()  # merged: a run of one folder updates that folder's tests
    known.update({t: round(s, 1) for t, s in _spent.items()})
    out = {t: s for t, s in sorted(known.items(), key=lambda kv: (-kv[1], kv[0])) if s >= 1.0}
    DURATIONS.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
