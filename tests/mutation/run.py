"""Mutation testing of the rules package with Cosmic Ray (issue 23; tests/mutation/README.md).

    python -m tests.mutation.run                      # every mutant (hours on one core)
    python -m tests.mutation.run --sample 30 --seed 1 # a fixed, seeded sample
    python -m tests.mutation.run --lines table_controller/rules/engine.py:370-384

Works on a copy of the package in a temporary folder (Cosmic Ray mutates files in place;
the work tree and any test running beside it never see a mutant).  Mutants listed in
tests/mutation/equivalent.toml are not run.  Prints every survivor as file:line, operator
and the change, then the counts; the last line is JSON.  Exit status 1 when a mutant that
is not listed as equivalent survives.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import pickle
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from cosmic_ray.ast import get_ast
from cosmic_ray.mutating import MutationVisitor, use_mutation
from cosmic_ray.plugins import get_operator
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CONFIG = HERE / "cosmic-ray.toml"
EQUIVALENT = HERE / "equivalent.toml"
# tests/conftest.py is left out: it loads OpenCV for the camera tests, a second per mutant
COPY = ["table_controller", "tests/__init__.py", "tests/rules", "tests/mutation", "pyproject.toml"]


def load_equivalents() -> tuple[list[dict], list[dict]]:
    data = tomllib.loads(EQUIVALENT.read_text())
    return data.get("mutant", []), data.get("pattern", [])


def matches_pattern(patterns: list[dict], op: str, mutated: str) -> bool:
    return any(op in p["operator"] and any(x in mutated for x in p["mutated_contains"]) for p in patterns)


_TREES: dict[str, bytes] = {}  # source -> its parse tree, pickled


def mutate_source(src: str, op_name: str, occurrence: int) -> str | None:
    """``cosmic_ray.mutating.mutate_code(src, ...)``, but the file is parsed once: each
    mutant walks a fresh copy of the parse tree (unpickling it is several times cheaper
    than parsing, and the suite's sample asks for a few hundred mutants' lines)."""
    blob = _TREES.get(src)
    if blob is None:
        blob = _TREES[src] = pickle.dumps(get_ast(src))
    visitor = MutationVisitor(occurrence, get_operator(op_name)())
    tree = visitor.walk(pickle.loads(blob))
    return tree.get_code() if visitor.mutation_applied else None


def mutant_lines(src: str, op_name: str, occurrence: int, line: int) -> tuple[str, str]:
    """The source line and what the mutant makes of it (stripped), for reports and for
    matching the equivalents list without line numbers (they move when code is edited)."""
    mutated = mutate_source(src, op_name, occurrence) or src
    old = src.splitlines()[line - 1].strip()
    new_lines = mutated.splitlines()
    new = new_lines[line - 1].strip() if line - 1 < len(new_lines) else ""
    return old, new


def annotation_lines(src: str) -> set[int]:
    """Lines holding only type annotations: every rules module starts with ``from
    __future__ import annotations``, so an annotation is never evaluated and a mutant of
    it (``str | None`` -> ``str & None``) is equivalent by construction."""
    assert "from __future__ import annotations" in src
    lines: set[int] = set()
    for node in ast.walk(ast.parse(src)):
        parts = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            parts.append(node.returns)
        elif (isinstance(node, ast.arg) and node.annotation) or isinstance(node, ast.AnnAssign):
            parts.append(node.annotation)
        for a in parts:
            lines.update((a.lineno, c) for c in range(a.col_offset, a.end_col_offset) if a.lineno == a.end_lineno)
    return lines


def _no_bytecode_but_pytests(folder: str, names: list[str]) -> list[str]:
    """What copy_tree leaves out: compiled modules, but for pytest's rewritten test modules
    (``__pycache__/*-pytest-*.pyc``, kept by a run of the suite).  The tests are never
    mutated, pytest takes such a file only while its test module's size and time match
    (copytree keeps the times), and with them a mutant's pytest does not rewrite the rule
    tests' asserts again (about half a second of CPU each, issue 15).  The rules package is
    compiled from its source in every run, as a mutant must be."""
    if Path(folder).name == "__pycache__":
        return [n for n in names if "-pytest-" not in n]
    return [n for n in names if n.endswith(".pyc")]


def copy_tree(dest: Path) -> None:
    for rel in COPY:
        src = ROOT / rel
        if src.is_dir():
            shutil.copytree(src, dest / rel, ignore=_no_bytecode_but_pytests)
        else:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


# Cosmic Ray's generated session and the rule tests' coverage map, kept between runs: both
# follow only from the files below, and the suite's sample would otherwise spend about 13 s
# of CPU on making them again every run (issue 15).  A changed file gives a new key.
CACHE = ROOT / "build" / "mutation-cache"


def cache_key(*extra: str) -> str:
    """A digest of the copied tree's Python files, the Cosmic Ray configuration, this
    runner and the coverage mapper, and ``extra``."""
    h = hashlib.sha256()
    for rel in COPY:
        src = ROOT / rel
        files = sorted(src.rglob("*.py")) if src.is_dir() else [src]
        for f in files:
            if "__pycache__" not in f.parts:
                h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    for f in (CONFIG, HERE / "covermap.py", Path(__file__)):
        h.update(f.read_bytes())
    for e in extra:
        h.update(e.encode() + b"\0")
    return h.hexdigest()[:24]


def cached(name: str) -> Path | None:
    path = CACHE / name
    return path if path.is_file() else None


def keep(path: Path, name: str) -> None:
    """Keeps a copy of ``path`` as ``name``: written beside and renamed, so a run killed
    halfway leaves no half file, and two runs side by side leave one whole one."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = CACHE / f".{name}.{os.getpid()}"
    shutil.copyfile(path, tmp)
    os.replace(tmp, CACHE / name)


def mutant_key(w) -> tuple[str, int, int, str, int]:
    m = w.mutations[0]
    return (str(m.module_path), *m.start_pos, m.operator_name, m.occurrence)


def survivors_of(session: Path) -> set[tuple[str, int, int, str, int]]:
    """The mutants a kept session records as survived (matched by file, position, operator
    and occurrence: a session's job ids are its own)."""
    with use_db(str(session), WorkDB.Mode.open) as db:
        return {
            mutant_key(w)
            for w, r in db.completed_work_items
            if r.worker_outcome == WorkerOutcome.NORMAL and r.test_outcome == TestOutcome.SURVIVED
        }


def judged_in(session: Path) -> dict[tuple[str, int, int, str, int], WorkResult]:
    """The mutants a kept session has judged (killed or survived), with their results."""
    with use_db(str(session), WorkDB.Mode.open) as db:
        return {
            mutant_key(w): r
            for w, r in db.completed_work_items
            if r.worker_outcome == WorkerOutcome.NORMAL and r.test_outcome in (TestOutcome.KILLED, TestOutcome.SURVIVED)
        }


def test_command(config: Path) -> list[str]:
    """The rule tests' pytest command, from the Cosmic Ray configuration."""
    return shlex.split(tomllib.loads(config.read_text())["cosmic-ray"]["test-command"])


def in_range(spec: list[str], path: str, line: int) -> bool:
    for s in spec:
        f, _, rng = s.partition(":")
        lo, _, hi = rng.partition("-")
        if path == f and (not rng or int(lo) <= line <= int(hi or lo)):
            return True
    return False


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def statement_at(tree: ast.Module, line: int, col: int) -> tuple[set[int], bool]:
    """The lines of the innermost statement (or ``except`` clause) holding the position
    (only its header for a compound statement: ``if``, ``for``, ``def`` with its
    decorators), and whether it sits inside a function's body (runs when the function is
    called, not when the module is imported)."""

    def span(n: ast.AST) -> tuple[int, int]:
        start = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])  # type: ignore[attr-defined]
        body = getattr(n, "body", None)
        end = body[0].lineno - 1 if isinstance(body, list) and body else n.end_lineno  # type: ignore[attr-defined]
        return start, max(start, end or start)

    def contains(n: ast.AST) -> bool:
        start = min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])])  # type: ignore[attr-defined]
        return (start, 0) <= (line, col) <= (n.end_lineno, n.end_col_offset)  # type: ignore[attr-defined]

    found: tuple[set[int], bool] = (set(), False)

    def walk(node: ast.AST, in_function: bool) -> None:
        nonlocal found
        for _field, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for child in children:
                if not isinstance(child, (ast.stmt, ast.excepthandler)) or not contains(child):
                    continue
                lo, hi = span(child)
                found = (set(range(lo, hi + 1)), in_function)
                # a def's body runs when it is called; its header (defaults, decorators) at import
                walk(child, in_function or isinstance(child, _FUNCS))

    walk(tree, False)
    return found


def select_tests(
    cover: dict, tree: ast.Module, path: str, line: int, col: int, unmapped: Sequence[str] = ()
) -> tuple[list[str], str]:
    """The rule tests to run a mutant against, fastest first, and why: "import" (module-level
    code, or code the import runs: every rule test), "covered" (the tests whose run
    executed the mutated statement), or "uncovered" (no rule test executes it: none).
    ``unmapped``: test files the coverage map left out (the sample's quick map): they run
    last for every mutant, and a statement no mapped test executes is run against them alone
    ("unmapped") instead of being called uncovered."""
    durations: dict[str, float] = cover["tests"]
    every = sorted(durations, key=lambda t: (durations[t], t))
    lines, in_function = statement_at(tree, line, col)
    if not in_function:
        return [*every, *unmapped], "import"
    executed = cover["lines"].get(path, {})
    contexts = {c for n in lines for c in executed.get(str(n), [])}
    if "" in contexts:
        return [*every, *unmapped], "import"
    chosen = sorted(contexts, key=lambda t: (durations[t], t))
    if not chosen and unmapped:
        return list(unmapped), "unmapped"
    return [*chosen, *unmapped], "covered" if chosen else "uncovered"


# The rule test files the sample's coverage map leaves out: under coverage they are two
# thirds of the map's cost (test_atomic.py fails at every event of whole tables, and
# test_input_checks.py plays whole tables from random options), and they kill few mutants
# the other files leave alive.
SLOW = ("tests/rules/test_atomic.py", "tests/rules/test_input_checks.py")

FIRST = 8  # the fastest tests a mutant meets first, in a process of their own


class Job:
    """One job's private copy of the project, and its warm pytest (warm.py) when asked."""

    def __init__(self, work: Path, options: list[str], warm: bool) -> None:
        self.work, self.options, self.server = work, options, None
        if warm:
            self.server = subprocess.Popen(
                [sys.executable, "-m", "tests.mutation.warm", json.dumps(options)],
                cwd=work,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )

    def pytest(self, tests: list[str], timeout: float) -> tuple[int | str, str]:
        """Run these tests on the copy as it is on disk: pytest's exit status (or
        "timeout") and its output."""
        argfile, outfile = self.work / "mutant-tests.txt", self.work / "mutant-output.txt"
        argfile.write_text("\n".join(tests) + "\n")
        if self.server is not None:
            assert self.server.stdin and self.server.stdout
            req = {"args": str(argfile), "out": str(outfile), "timeout": timeout}
            self.server.stdin.write(json.dumps(req) + "\n")
            self.server.stdin.flush()
            rc = json.loads(self.server.stdout.readline())
            return rc, (outfile.read_text(errors="replace")[-4000:] if outfile.exists() else "")
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", *self.options, f"@{argfile}"],
            cwd=self.work,
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.communicate()
            return "timeout", ""
        return proc.returncode, out.decode(errors="replace")[-4000:]

    def close(self) -> None:
        if self.server is not None and self.server.stdin:
            self.server.stdin.close()
            self.server.wait()


def run_mutant(jobs: queue.Queue, w, tests: list[str], files: list[str], timeout: float) -> WorkResult:
    """Apply one mutant with Cosmic Ray (``use_mutation``: written into a job's private copy
    of the project, put back after) and run the chosen tests on it, stopping at the first
    failure: the fastest few first, the rest only if those pass.
    Killed: a test failed (pytest exit 1), collection failed (2: the mutant broke an
    import), or the time ran out; survived: every chosen test passed (exit 0).  Any other
    exit (4: a chosen test was not found, when the mutant broke its module's import or
    changed a parametrization; 5: none collected) says nothing yet: the mutant is then run
    against the whole test files, as Cosmic Ray's own command would, and judged by that."""
    m = w.mutations[0]
    job = jobs.get()
    try:
        with use_mutation(job.work / m.module_path, get_operator(m.operator_name)(), m.occurrence) as (_, code):
            if code is None:
                return WorkResult(worker_outcome=WorkerOutcome.NO_TEST)
            rc: int | str = 0
            text = ""
            for chunk in (tests[:FIRST], tests[FIRST:]):
                if not chunk:
                    continue
                rc, text = job.pytest(chunk, timeout)
                if rc not in (0, 1, 2, "timeout"):
                    rc, text = job.pytest(files, timeout)
                if rc != 0:
                    break
        if rc == "timeout":
            return WorkResult(output="timeout", test_outcome=TestOutcome.KILLED, worker_outcome=WorkerOutcome.NORMAL)
        if rc in (1, 2):
            return WorkResult(output=text, test_outcome=TestOutcome.KILLED, worker_outcome=WorkerOutcome.NORMAL)
        if rc == 0:
            return WorkResult(output=text, test_outcome=TestOutcome.SURVIVED, worker_outcome=WorkerOutcome.NORMAL)
        return WorkResult(output=text, test_outcome=TestOutcome.INCOMPETENT, worker_outcome=WorkerOutcome.ABNORMAL)
    finally:
        jobs.put(job)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=0, help="run only this many mutants, drawn with --seed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lines", nargs="*", default=[], help="FILE:FROM-TO: only mutants on these lines")
    ap.add_argument("--keep", help="keep the session database at this path")
    ap.add_argument("--survivors-of", help="run only the mutants that survived in this kept session (--keep)")
    ap.add_argument(
        "--cold", dest="warm", action="store_false", help="a fresh pytest process per run (default: warm.py forks)"
    )
    ap.add_argument("--resume", help="take the results a kept session (--keep) already has; run the rest")
    ap.add_argument("--retry", nargs="*", default=[], help="FILE:FROM-TO: with --resume, run its survivors there again")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run side by side (one private copy each)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds a mutant's tests may take (then: killed)")
    args = ap.parse_args(argv)

    equivalents, patterns = load_equivalents()
    with tempfile.TemporaryDirectory(prefix="chicago-mutation-") as tmp:
        work = Path(tmp)
        copy_tree(work)
        session = Path(args.keep).resolve() if args.keep else work / "session.sqlite"
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        cr = [sys.executable, "-m", "cosmic_ray.cli"]
        # the tests run with this interpreter (the project's .venv)
        config = work / "cosmic-ray.toml"
        config.write_text(CONFIG.read_text().replace('"python -m pytest', f'"{sys.executable} -m pytest'))
        init_key = cache_key(sys.executable)
        if not args.keep and (hit := cached(f"session-{init_key}.sqlite")):
            shutil.copyfile(hit, session)  # a fresh copy: the run writes its results into it
        else:
            subprocess.run([*cr, "init", str(config), str(session), "--force"], cwd=work, env=env, check=True)
            keep(session, f"session-{init_key}.sqlite")

        with use_db(str(session), WorkDB.Mode.open) as db:
            items = sorted(
                db.work_items,
                key=lambda w: (
                    str(w.mutations[0].module_path),
                    w.mutations[0].start_pos,
                    w.mutations[0].operator_name,
                    w.mutations[0].occurrence,
                ),
            )
            sources: dict[str, str] = {}
            annotations: dict[str, set[int]] = {}
            info = {}
            in_annotation = set()
            for w in items:
                m = w.mutations[0]
                path = str(m.module_path)
                if path not in sources:  # each file read and walked once (not once per mutant)
                    sources[path] = (work / path).read_text()
                    annotations[path] = annotation_lines(sources[path])
                src = sources[path]
                if tuple(m.start_pos) in annotations[path]:
                    in_annotation.add(w.job_id)
                line = m.start_pos[0]
                old = src.splitlines()[line - 1].strip()
                info[w.job_id] = [path, line, m.operator_name.split("/")[-1], old, None]

            def line_before(w) -> str:  # tells apart two lines of the same text (equivalent.toml "before")
                path, line = info[w.job_id][0], info[w.job_id][1]
                return sources[path].splitlines()[line - 2].strip() if line > 1 else ""

            def mutated(w) -> str:  # computed only when needed: it re-parses the file
                if info[w.job_id][4] is None:
                    m = w.mutations[0]
                    info[w.job_id][4] = mutant_lines(
                        sources[str(m.module_path)], m.operator_name, m.occurrence, m.start_pos[0]
                    )[1]
                return info[w.job_id][4]

            chosen = [w for w in items if not args.lines or in_range(args.lines, info[w.job_id][0], info[w.job_id][1])]
            if args.survivors_of:  # only the mutants another run's session left alive
                again = survivors_of(Path(args.survivors_of))
                chosen = [w for w in chosen if mutant_key(w) in again]
            pattern_ops = {o for p in patterns for o in p["operator"]}

            def is_equivalent(w) -> bool:
                return (
                    w.job_id in in_annotation
                    or any(
                        e["file"] == info[w.job_id][0]
                        and e["line"] == info[w.job_id][3]
                        and e["mutated"] == mutated(w)
                        and ("before" not in e or e["before"] == line_before(w))
                        for e in equivalents
                    )
                    or (info[w.job_id][2] in pattern_ops and matches_pattern(patterns, info[w.job_id][2], mutated(w)))
                )

            if args.sample:  # keyed by the mutant's text, not its place in the list: a mutant
                # added to the equivalents, or code edited elsewhere, leaves the rest of the
                # sample as it was; the file by its name alone, so moving the package does too
                def draw(w):
                    path, _, op, old, _ = info[w.job_id]
                    key = f"{args.seed}|{Path(path).name}|{old}|{op}|{w.mutations[0].occurrence}"
                    return hashlib.sha256(key.encode()).hexdigest()

                # the first N non-equivalent mutants in the draw's order: the same sample as
                # drawing from all the non-equivalent ones, but only the mutants met on the
                # way are judged equivalent or not (each costs a walk of its file's tree)
                equivalent, runnable = set(), []
                for w in sorted(chosen, key=draw):
                    if len(runnable) == args.sample:
                        break
                    if is_equivalent(w):
                        equivalent.add(w.job_id)
                    else:
                        runnable.append(w)
            else:
                equivalent = {w.job_id for w in chosen if is_equivalent(w)}
                runnable = [w for w in chosen if w.job_id not in equivalent]
            run_ids = {w.job_id for w in runnable}
            for w in runnable:
                mutated(w)
            skip = [w.job_id for w in items if w.job_id not in run_ids]
            db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))

        # which rule test runs which line, measured once on the unmutated code (covermap.py)
        t0, cpu0 = time.monotonic(), os.times()
        pytest_args = test_command(CONFIG)[3:]  # after "python -m pytest"
        files = [a for a in pytest_args if a.startswith("tests/")]
        options = [a for a in pytest_args if not a.startswith("tests/")]
        # the sample's quick map leaves out the slow files (SLOW): they run last for every
        # mutant instead, which a sample of mostly first-test kills rarely reaches
        unmapped = [f for f in files if f in SLOW] if args.sample else []
        mapped = [f for f in files if f not in unmapped]
        map_key = cache_key(sys.executable, *options, *mapped)
        map_cached = (hit := cached(f"cover-{map_key}.json")) is not None
        if hit:  # the same code and tests: the same map
            shutil.copyfile(hit, work / "cover.json")
        else:
            r = subprocess.run(
                [sys.executable, "-m", "tests.mutation.covermap", str(work / "cover.json"), *options, *mapped],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
            )
            if r.returncode != 0:  # a failing rule test would "kill" every mutant
                sys.exit(f"the rule tests fail on the unmutated code:\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
            keep(work / "cover.json", f"cover-{map_key}.json")
        cover = json.loads((work / "cover.json").read_text())
        cpu_map = sum(os.times()[2:4]) - sum(cpu0[2:4])
        trees = {path: ast.parse(src) for path, src in sources.items()}
        selection = {}
        for w in runnable:
            m = w.mutations[0]
            selection[w.job_id] = select_tests(
                cover, trees[str(m.module_path)], str(m.module_path), *m.start_pos, unmapped=unmapped
            )

        # one private copy of the project per parallel job: a mutant is written into one
        jobs: queue.Queue = queue.Queue()
        all_jobs = []
        for j in range(max(1, args.jobs)):
            d = work / f"job{j}"
            copy_tree(d)
            all_jobs.append(Job(d, options, args.warm))
            jobs.put(all_jobs[-1])
        survived, uncovered, killed, incompetent = [], [], 0, 0
        results = {}
        cpu1, t1 = os.times(), time.monotonic()

        resumed = judged_in(Path(args.resume)) if args.resume else {}
        for w in runnable:  # --retry: survivors of the resumed run on these lines are run again
            r = resumed.get(mutant_key(w))
            if r is not None and r.test_outcome == TestOutcome.SURVIVED and in_range(args.retry, *info[w.job_id][:2]):
                del resumed[mutant_key(w)]

        def one(w):
            if mutant_key(w) in resumed:  # judged by the run being resumed (its tests then)
                return w, resumed[mutant_key(w)]
            tests, why = selection[w.job_id]
            if why == "uncovered":  # no rule test runs this statement: survived, without a run
                return w, WorkResult(
                    output="no rule test executes this line",
                    test_outcome=TestOutcome.SURVIVED,
                    worker_outcome=WorkerOutcome.NORMAL,
                )
            return w, run_mutant(jobs, w, tests, files, args.timeout)

        order = sorted(
            runnable, key=lambda w: (mutant_key(w) not in resumed, len(selection[w.job_id][0]))
        )  # cheap ones first: early figures
        with ThreadPoolExecutor(max(1, args.jobs)) as pool, use_db(str(session), WorkDB.Mode.open) as db:
            futures = [pool.submit(one, w) for w in order]  # results kept as they come (a stopped run keeps them)
            for n, (w, res) in enumerate((f.result() for f in as_completed(futures)), 1):
                db.set_result(w.job_id, res)
                results[w.job_id] = res
                if res.worker_outcome != WorkerOutcome.NORMAL:
                    incompetent += 1
                elif res.is_killed:
                    killed += 1
                else:
                    survived.append(info[w.job_id])
                    if selection[w.job_id][1] == "uncovered":
                        uncovered.append(info[w.job_id])
                    path, line, op, old, new = info[w.job_id]
                    print(f"survived: {path}:{line} {op}: {old!r} -> {new!r}", file=sys.stderr, flush=True)
                if n % 50 == 0 or n == len(order):
                    print(
                        f"progress: {n}/{len(order)} run, {killed} killed, {len(survived)} survived, "
                        f"{incompetent} not run cleanly, {time.monotonic() - t1:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
        for job in all_jobs:
            job.close()
        cpu_runs = sum(os.times()[2:4]) - sum(cpu1[2:4])
        wall = time.monotonic() - t0
    for path, line, op, old, new in sorted(tuple(x) for x in survived):
        note = "  (no rule test executes this line)" if [path, line, op, old, new] in uncovered else ""
        print(f"SURVIVED {path}:{line} {op}{note}\n    - {old}\n    + {new}")
    kinds = [selection[i][1] for i in run_ids]
    ran_before = [w for w in runnable if mutant_key(w) in resumed]
    summary = {
        "generated": len(items),
        "in_scope": len(chosen),
        "equivalent": len(equivalent),  # with --sample: of the mutants met while drawing it
        "of_which_annotations": len(in_annotation & equivalent),
        "run": len(run_ids),
        "killed": killed,
        "survived": len(survived),
        "of_which_uncovered": len(uncovered),
        "not_run_cleanly": incompetent,
        "kill_rate": round(killed / max(1, killed + len(survived)), 4),
        "selection": {k: kinds.count(k) for k in ("covered", "import", "uncovered", "unmapped")},
        "unmapped_files": unmapped,
        "cpu_s_coverage_map": round(cpu_map, 1),
        "coverage_map_cached": map_cached,
        "resumed": len(ran_before),
        "cpu_s_per_mutant_run": round(cpu_runs / max(1, len(run_ids) - len(ran_before) - kinds.count("uncovered")), 2),
        "wall_s": round(wall),
    }
    print(json.dumps(summary))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
