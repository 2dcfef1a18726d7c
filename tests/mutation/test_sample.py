"""A fixed, seeded sample of 30 mutants of the rules package must all be killed (issue 23).

The full mutation run (`make mutation`, about 2,800 mutants) stays out of the suite; this
sample keeps a place where a weakened rule test fails the build.  Each mutant runs only
against the rule tests that execute its statement, fastest first (tests/mutation/README.md),
so the sample costs a coverage map of the rule tests and well under a second of CPU for
most mutants; a mutant no rule test executes counts as survived and fails this test.  A survivor is either a
missing rule test (write it, named after the rule) or an equivalent mutant (list it in
tests/mutation/equivalent.toml with the reasoning).
"""

import json
import subprocess
import sys

import pytest


@pytest.mark.timeout(900)
def test_seeded_sample_of_rules_mutants_is_killed():
    r = subprocess.run(
        [sys.executable, "-m", "tests.mutation.run", "--sample", "30", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=850,
    )
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["run"] == 30 and summary["not_run_cleanly"] == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert summary["survived"] == 0 and r.returncode == 0, r.stdout[-3000:]
