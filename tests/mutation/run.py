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
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from cosmic_ray.ast import get_ast
from cosmic_ray.mutating import MutationVisitor
from cosmic_ray.plugins import get_operator
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CONFIG = HERE / "cosmic-ray.toml"
EQUIVALENT = HERE / "equivalent.toml"
# tests/conftest.py is left out: it loads OpenCV for the camera tests, a second per mutant
COPY = ["table_controller", "tests/__init__.py", "tests/rules", "pyproject.toml"]


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


def copy_tree(dest: Path) -> None:
    for rel in COPY:
        src = ROOT / rel
        if src.is_dir():
            shutil.copytree(src, dest / rel, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def in_range(spec: list[str], path: str, line: int) -> bool:
    for s in spec:
        f, _, rng = s.partition(":")
        lo, _, hi = rng.partition("-")
        if path == f and int(lo) <= line <= int(hi or lo):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=0, help="run only this many mutants, drawn with --seed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lines", nargs="*", default=[], help="FILE:FROM-TO: only mutants on these lines")
    ap.add_argument("--keep", help="keep the session database at this path")
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
        subprocess.run([*cr, "init", str(config), str(session), "--force"], cwd=work, env=env, check=True)

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

            def mutated(w) -> str:  # computed only when needed: it re-parses the file
                if info[w.job_id][4] is None:
                    m = w.mutations[0]
                    info[w.job_id][4] = mutant_lines(
                        sources[str(m.module_path)], m.operator_name, m.occurrence, m.start_pos[0]
                    )[1]
                return info[w.job_id][4]

            chosen = [w for w in items if not args.lines or in_range(args.lines, info[w.job_id][0], info[w.job_id][1])]
            equivalent = {
                w.job_id
                for w in chosen
                if w.job_id in in_annotation
                or any(
                    e["file"] == info[w.job_id][0] and e["line"] == info[w.job_id][3] and e["mutated"] == mutated(w)
                    for e in equivalents
                )
                or (
                    info[w.job_id][2] in {o for p in patterns for o in p["operator"]}
                    and matches_pattern(patterns, info[w.job_id][2], mutated(w))
                )
            }
            runnable = [w for w in chosen if w.job_id not in equivalent]
            if args.sample:  # keyed by the mutant's text, not its place in the list: a mutant
                # added to the equivalents, or code edited elsewhere, leaves the rest of the
                # sample as it was; the file by its name alone, so moving the package does too
                def draw(w):
                    path, _, op, old, _ = info[w.job_id]
                    key = f"{args.seed}|{Path(path).name}|{old}|{op}|{w.mutations[0].occurrence}"
                    return hashlib.sha256(key.encode()).hexdigest()

                runnable = sorted(runnable, key=draw)[: args.sample]
            run_ids = {w.job_id for w in runnable}
            for w in runnable:
                mutated(w)
            skip = [w.job_id for w in items if w.job_id not in run_ids]
            db.set_multiple_results(skip, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))

        subprocess.run([*cr, "exec", str(config), str(session)], cwd=work, env=env, check=True)

        survived, killed, incompetent = [], 0, 0
        with use_db(str(session), WorkDB.Mode.open) as db:
            for w, r in db.completed_work_items:
                if w.job_id not in run_ids:
                    continue
                if r.worker_outcome != WorkerOutcome.NORMAL:
                    incompetent += 1
                elif r.is_killed:
                    killed += 1
                else:
                    survived.append(info[w.job_id])
    for path, line, op, old, new in sorted(tuple(x) for x in survived):
        print(f"SURVIVED {path}:{line} {op}\n    - {old}\n    + {new}")
    summary = {
        "generated": len(items),
        "in_scope": len(chosen),
        "equivalent": len(equivalent),
        "of_which_annotations": len(in_annotation & equivalent),
        "run": len(run_ids),
        "killed": killed,
        "survived": len(survived),
        "not_run_cleanly": incompetent,
    }
    print(json.dumps(summary))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
