"""Which rule test runs which line of the rules package (issue 23, tests/mutation/README.md).

    python -m tests.mutation.covermap OUT.json [pytest args...]

Run by ``run.py`` once per mutation run, in its copy of the project, with the unmutated
code.  coverage.py measures the rules package while pytest runs the rule tests, switching
coverage's dynamic context to each test's node id for the test's setup, call and teardown
(coverage's ``switch_context`` API); every rules module is imported first, under the empty
context, so module-level code (the ruleset tables, constants, ``def`` lines) is recorded
as the import's, not as whichever test happened to import it.  Writes, as JSON, each
test's node id and duration, and for each file of the package each executed line with
the tests that ran it ("" for the import).  Exit status that of pytest: the rule tests
must pass on the unmutated code, or no mutant can be judged.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import coverage


def main(argv: list[str]) -> int:
    out, pytest_args = Path(argv[0]), argv[1:]
    rules = Path.cwd() / "table_controller" / "rules"
    cov = coverage.Coverage(data_file=None, source=[str(rules)], branch=False, config_file=False)
    cov.start()
    import pytest

    durations: dict[str, float] = {}

    class Contexts:
        def pytest_configure(self, config: Any) -> None:
            for f in sorted(rules.glob("*.py")):
                importlib.import_module(
                    f"table_controller.rules.{f.stem}" if f.stem != "__init__" else "table_controller.rules"
                )

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
            cov.switch_context(item.nodeid)
            t = time.perf_counter()
            yield
            durations[item.nodeid] = time.perf_counter() - t
            cov.switch_context("")

    rc = pytest.main(pytest_args, plugins=[Contexts()])
    cov.stop()
    data = cov.get_data()
    lines: dict[str, dict[int, list[str]]] = {}
    for f in data.measured_files():
        path = Path(f).resolve()
        assert path.is_relative_to(rules.resolve()), f"measured {f}, not the copy under {rules}"
        rel = str(path.relative_to(Path.cwd().resolve()))
        lines[rel] = {n: sorted(c) for n, c in data.contexts_by_lineno(f).items()}
    out.write_text(json.dumps({"tests": durations, "lines": lines}))
    return int(rc)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
