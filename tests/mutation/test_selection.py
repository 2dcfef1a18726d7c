"""The per-mutant test selection of the mutation run (tests/mutation/run.py, issue 23): a
mutant is run only against the rule tests that execute its statement, every rule test when
the statement runs at import, none (counted as survived) when no rule test executes it; with
the sample's quick map, the slow files it left out last (or alone)."""

import ast

from tests.mutation.run import select_tests, statement_at

SRC = """\
LIMIT = 46


@decorate(3)
def f(x, y=LIMIT + 1):
    if (x >
            y):
        return 1
    try:
        g()
    except ValueError:
        pass
    return 2


class C:
    size: int = 5

    def m(self):
        return [i * 2 for i in range(3)]
"""
TREE = ast.parse(SRC)
COVER = {
    "tests": {"t_slow": 2.0, "t_fast": 0.1, "t_other": 0.5},
    "lines": {"m.py": {"1": [""], "5": [""], "6": ["t_slow", "t_fast"], "7": ["t_other"], "12": ["t_slow"]}},
}


def test_module_level_code_runs_at_import():
    assert statement_at(TREE, 1, 8) == ({1}, False)
    assert statement_at(TREE, 17, 16) == ({17}, False)  # a class attribute's default


def test_a_def_header_with_its_decorators_and_defaults_runs_at_import():
    assert statement_at(TREE, 4, 10) == ({4, 5}, False)
    assert statement_at(TREE, 5, 17) == ({4, 5}, False)


def test_a_function_body_statement_runs_when_called_its_header_lines_only():
    assert statement_at(TREE, 7, 12) == ({6, 7}, True)  # a multi-line `if` header
    assert statement_at(TREE, 8, 15) == ({8}, True)
    assert statement_at(TREE, 11, 11) == ({11}, True)  # an except clause
    assert statement_at(TREE, 20, 20) == ({20}, True)  # a method body


def test_the_tests_that_ran_the_statement_fastest_first():
    assert select_tests(COVER, TREE, "m.py", 7, 12) == (["t_fast", "t_other", "t_slow"], "covered")
    assert select_tests(COVER, TREE, "m.py", 12, 8) == (["t_slow"], "covered")


def test_module_level_mutants_run_against_every_test_fastest_first():
    assert select_tests(COVER, TREE, "m.py", 1, 8) == (["t_fast", "t_other", "t_slow"], "import")


def test_a_statement_no_test_runs_selects_none():
    assert select_tests(COVER, TREE, "m.py", 8, 15) == ([], "uncovered")
    assert select_tests(COVER, TREE, "other.py", 8, 15) == ([], "uncovered")


def test_files_left_out_of_the_quick_map_run_last_and_alone_where_no_mapped_test_runs():
    slow = ["tests/rules/test_atomic.py"]
    assert select_tests(COVER, TREE, "m.py", 7, 12, unmapped=slow) == (
        ["t_fast", "t_other", "t_slow", *slow],
        "covered",
    )
    assert select_tests(COVER, TREE, "m.py", 1, 8, unmapped=slow) == (["t_fast", "t_other", "t_slow", *slow], "import")
    assert select_tests(COVER, TREE, "m.py", 8, 15, unmapped=slow) == (slow, "unmapped")


def test_the_cache_key_follows_every_copied_file_and_a_kept_file_is_whole(tmp_path, monkeypatch):
    """The generated session and the coverage map are reused only for the same code: an
    edit of any copied file (a rule, a rule test) gives another key."""
    from tests.mutation import run

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "rules.py").write_text("GOING_OUT = 52\n")
    (tmp_path / "test_rules.py").write_text("def test(): pass\n")
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "COPY", ["pkg", "test_rules.py"])
    monkeypatch.setattr(run, "CACHE", tmp_path / "cache")
    first = run.cache_key("x")
    assert run.cache_key("x") == first and run.cache_key("y") != first
    (tmp_path / "pkg" / "rules.py").write_text("GOING_OUT = 53\n")
    second = run.cache_key("x")
    assert second != first
    (tmp_path / "test_rules.py").write_text("def test(): assert 1\n")
    assert run.cache_key("x") not in (first, second)

    assert run.cached("cover-k.json") is None
    made = tmp_path / "cover.json"
    made.write_text('{"a": 1}')
    run.keep(made, "cover-k.json")
    assert run.cached("cover-k.json").read_text() == '{"a": 1}'
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["cover-k.json"]  # no half file left


def test_a_jobs_copy_keeps_pytests_rewritten_tests_and_no_compiled_module(tmp_path, monkeypatch):
    """A mutant's run reads every module of the rules package from its source, so no
    compiled module goes into a job's copy; pytest's rewritten test modules do, with their
    times, so pytest takes them instead of rewriting the rule tests' asserts again."""
    from tests.mutation import run

    src = tmp_path / "src"
    cache = src / "pkg" / "__pycache__"
    cache.mkdir(parents=True)
    (src / "pkg" / "rules.py").write_text("GOING_OUT = 52\n")
    (cache / "rules.cpython-311.pyc").write_bytes(b"compiled rules")
    (src / "pkg" / "stray.pyc").write_bytes(b"compiled")
    tests = src / "tests" / "__pycache__"
    tests.mkdir(parents=True)
    (src / "tests" / "test_rules.py").write_text("def test(): pass\n")
    (tests / "test_rules.cpython-311-pytest-8.4.2.pyc").write_bytes(b"rewritten")
    monkeypatch.setattr(run, "ROOT", src)
    monkeypatch.setattr(run, "COPY", ["pkg", "tests"])
    run.copy_tree(tmp_path / "job0")
    copied = sorted(p.relative_to(tmp_path / "job0").as_posix() for p in (tmp_path / "job0").rglob("*") if p.is_file())
    assert copied == [
        "pkg/rules.py",
        "tests/__pycache__/test_rules.cpython-311-pytest-8.4.2.pyc",
        "tests/test_rules.py",
    ]
    # pytest takes a rewritten module while its source's size and time are those it noted
    assert (tmp_path / "job0" / "tests" / "test_rules.py").stat().st_mtime == (
        src / "tests" / "test_rules.py"
    ).stat().st_mtime
