"""The project's shape, read from its source with ``ast`` (issue 14; README "Layout").

Data flows one way: sensors -> sensing -> rules -> store and views -> dashboard, and only
the composition root (``table_controller.app``) wires the parts together.  These tests
fail on an import that runs against that flow, on an import loop, on a module that
reaches into another module's private names, and on a module of ours loaded by a name in a
string (``importlib.import_module``), which the graph could not see.  Imports under
``if TYPE_CHECKING:`` never run, so they do not count; imports inside functions do.
"""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("table_controller", "dashboard", "hardware", "firmware_bridge", "vision")

# The core of the controller: what runs a table, with no web, no simulation, no device.
CORE = (
    "table_controller.rules",
    "table_controller.sensing",
    "table_controller.store",
    "table_controller.live",
    "table_controller.views",
    "table_controller.deck",
    "table_controller.clocks",
    "table_controller.sensor_events",
    "table_controller.scoresheet_text",
    "table_controller.analysis",
    "table_controller.tournament",
)
APP = "table_controller.app"
SIM = "table_controller.sim"

# Private names other modules still reach into until the rules package has its public
# query API (issue 14 item 1, the rules branch: at_draw_stop(player), trick_complete,
# standings(), and the engine by composition instead of the TrickRules mixin whose
# handlers engine.py lists).  The lead empties this at merge.
PENDING_RULES_API: set[str] = set()
# tricks.py imports IllegalAction from engine.py inside a function; rules/errors.py ends it.
PENDING_RULES_LOOPS: list[list[str]] = []
# The same for the one read path (issue 14 item 3): empty since the score sheet's routes
# read the role filter instead of TableHub's snapshot and its card-masking regex.
PENDING_READ_PATH: set[str] = set()
# The views' card masking (issue 14 item 3): the regex over card codes and what applies it.
# The dashboard asks the role filter (Sight.refusal, Sight.words) and never uses these.
CARD_MASKS = {"CARD_CODE", "without_cards", "redact"}
# A regular expression over card codes matches every one of these whole and none of the rest.
CARD_SAMPLES = ("AS", "TD", "7C", "2H", "KS", "QD")
NOT_CARDS = ("Anna", "AX", "ZS", "seat2", "S", "")
# Names that are not the project's at all (a library's private state read on purpose). The
# simulated-time loop declares the base loop's attributes it reads (_ready, _stopping...) on
# its own class, so they count as its own. argparse says its own words (usage, its errors)
# only through its module's ``_`` (gettext): the CLI swaps it while it parses, so that an
# official reads them in Swedish (app/argwords.py: argparse_speaking, restored after).
FOREIGN: set[tuple[str, str]] = {("table_controller/app/argwords.py", "_")}


# --- reading the source -------------------------------------------------------------------
def module_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages: the .py files, and the C extensions by their type stubs
    (a ``.pyi`` beside its ``.c`` source, e.g. the solver's ``analysis/_kernel``)."""
    out = {}
    for package in packages:
        stubs = [p for p in (root / package).rglob("*.pyi") if p.with_suffix(".c").exists()]
        for path in sorted([*(root / package).rglob("*.py"), *stubs]):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _running_nodes(tree: ast.AST):
    """Every node, except what sits under ``if TYPE_CHECKING:`` (never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (``from p import m`` counts as importing
    ``p.m`` when that is a module, else ``p``)."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in _running_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(known(a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.add(sub if sub in modules else known(source))
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def import_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []
    for start, first in graph.items():
        if start in index:
            continue
        work = [(start, iter(sorted(first)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    loops.append(sorted(group))
    return loops


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, names it assigns, and
    attributes it assigns on ``self``/``cls``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            out.add(node.attr)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
    return {n for n in out if _private(n)}


def private_accesses(files: dict[str, Path], root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, name) wherever a module uses ``obj._name`` (obj not ``self``, ``cls`` or
    ``super()``) or imports ``_name``, and ``_name`` is defined in another module of the
    project but not in this one."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in files.values()}
    defined = {path: _defined(tree) for path, tree in trees.items()}
    owners: dict[str, set[Path]] = {}
    for path, names in defined.items():
        for n in names:
            owners.setdefault(n, set()).add(path)
    found = []
    for path, tree in trees.items():
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Attribute) and _private(node.attr):
                value = node.value
                if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                    continue
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
                    continue
                name = node.attr
            elif isinstance(node, ast.ImportFrom):
                hits = [a.name for a in node.names if _private(a.name)]
                name = hits[0] if hits else None
            if name and name not in defined[path] and owners.get(name, set()) - {path}:
                found.append((rel, getattr(node, "lineno", 0), name))
    return sorted(found)


# Phases and scoring moments are str enums (rules/phases.py): equal to their text, so a
# comparison with a misspelt string ("trick") is quietly always false, and mypy cannot see
# it (an enum member and a str overlap).  Code compares with the members instead.
PHASE_NAMES = {"phase", "moment", "next_moment"}


def _is_phase(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in PHASE_NAMES) or (
        isinstance(node, ast.Attribute) and node.attr in PHASE_NAMES
    )


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_is_text(e) for e in node.elts)
    return False


def phase_text_comparisons(files: dict[str, Path], root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, code) wherever a phase or moment (a name or attribute ``phase``,
    ``moment``, ``next_moment``) is compared with string literals (``==``, ``!=``, ``in``,
    ``not in``) or asked ``.startswith``; a document's ``["phase"]`` is text and is not
    looked at."""
    found = []
    for path in files.values():
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(map(_is_phase, sides)) and any(map(_is_text, sides)):
                    found.append((rel, node.lineno, ast.unparse(node)))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith")
                and _is_phase(node.func.value)
            ):
                found.append((rel, node.lineno, ast.unparse(node)))
    return sorted(found)


# Loading a module by a name in a string hides an arrow from the import graph above: the
# composition root once loaded its commands so (``importlib.import_module("dashboard.serve_cli")``)
# and the graph could not see the dashboard's CLI wiring the live table.
LOADERS = {"import_module", "__import__"}


def imports_by_name(
    files: dict[str, Path], root: Path = ROOT, packages: tuple[str, ...] = PACKAGES, dynamic_in: tuple[str, ...] = ()
) -> list[tuple[str, int, str]]:
    """(file, line, code) wherever ``importlib.import_module``/``__import__`` is given a
    string literal naming a module of ``packages``, and, in the modules ``dynamic_in``,
    wherever either is called at all (a name from a table or a variable)."""
    found = []
    for name, path in files.items():
        rel = path.relative_to(root).as_posix()
        anywhere = any(name == d or name.startswith(d + ".") for d in dynamic_in)
        for node in _running_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called not in LOADERS or not node.args:
                continue
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            ours = literal and str(first.value).split(".")[0] in packages
            if ours or anywhere:
                found.append((rel, node.lineno, ast.unparse(node)))
    return sorted(found)


RE_FUNCTIONS = {"compile", "sub", "subn", "search", "match", "fullmatch", "findall", "finditer", "split"}


def _re_function(func: ast.AST) -> bool:
    """``re.sub`` and its kin (``re`` by that name)."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr in RE_FUNCTIONS
        and isinstance(func.value, ast.Name)
        and func.value.id == "re"
    )


def _over_card_codes(pattern: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rx = re.compile(pattern)
    except (re.error, RecursionError):
        return False
    return all(rx.fullmatch(c) for c in CARD_SAMPLES) and not any(rx.fullmatch(w) for w in NOT_CARDS)


def card_masking(files: dict[str, Path], root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, what) wherever a module imports the views' card masking (``CARD_MASKS``:
    the card-code regex, ``without_cards``, the ``redact`` module) or gives the ``re`` module
    a regular expression over card codes (it matches ``CARD_SAMPLES`` whole and no word of
    ``NOT_CARDS``): the signs of looking for cards in text instead of asking the role filter.
    A field's own pattern (a request body's card, checked whole by pydantic) is no search."""
    found = []
    for path in files.values():
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [a.name for a in node.names if a.name in CARD_MASKS]
                if (node.module or "").rpartition(".")[2] in CARD_MASKS:
                    names.insert(0, str(node.module))
                found += [(rel, node.lineno, f"import {n}") for n in names]
            elif isinstance(node, ast.Import):
                found += [(rel, node.lineno, f"import {a.name}") for a in node.names if a.name.endswith(".redact")]
            elif isinstance(node, ast.Call) and _re_function(node.func):
                pattern = (
                    node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "pattern"), None)
                )
                text = pattern.value if isinstance(pattern, ast.Constant) else None
                if isinstance(text, str) and _over_card_codes(text):
                    found.append((rel, node.lineno, repr(text)))
    return sorted(found)


MODULES = module_files()
GRAPH = import_graph(MODULES)


def _in(module: str, *rooms: str) -> bool:
    return any(module == r or module.startswith(r + ".") for r in rooms)


def _arrows(sources: tuple[str, ...], targets: tuple[str, ...], graph: dict[str, set[str]] | None = None) -> list[str]:
    graph = GRAPH if graph is None else graph
    return sorted(f"{m} -> {t}" for m in graph if _in(m, *sources) for t in graph[m] if _in(t, *targets))


def _outside_app(arrows: list[str]) -> list[str]:
    return [a for a in arrows if not _in(a.split(" -> ")[0], APP)]


# the rooms of the read and write path that never know who wires or shows them (issue 14)
LOWER = ("table_controller.rules", "table_controller.sensing", "table_controller.store", "table_controller.views")


# --- the one-way flow ---------------------------------------------------------------------
def test_the_core_and_the_devices_never_import_the_dashboard_hardware_simulation_or_app():
    assert _arrows(CORE + ("firmware_bridge", "vision"), ("dashboard", "hardware", SIM, APP)) == []


def test_the_rules_import_nothing_of_the_project_outside_the_rules():
    arrows = _arrows(("table_controller.rules",), PACKAGES)
    assert [a for a in arrows if not a.split(" -> ")[1].startswith("table_controller.rules")] == []


def test_the_bridge_and_the_camera_share_only_the_sensor_events():
    arrows = _arrows(("firmware_bridge", "vision"), PACKAGES)
    own = [
        a for a in arrows if _in(a.split(" -> ")[1], a.split(".")[0].split(" ")[0], "table_controller.sensor_events")
    ]
    assert sorted(set(arrows) - set(own)) == []
    assert _arrows(("table_controller.sensor_events",), PACKAGES) == []


def test_the_tournament_reads_logs_and_never_the_live_table():
    """What table_controller/tournament/__init__.py says it may import, and nothing else."""
    allowed = (
        "table_controller.tournament",
        "table_controller.rules",
        "table_controller.store",
        "table_controller.sensing.alerts",
    )
    assert [
        a for a in _arrows(("table_controller.tournament",), PACKAGES) if not _in(a.split(" -> ")[1], *allowed)
    ] == []


def test_the_dashboard_shows_a_table_and_never_wires_one():
    assert _arrows(("dashboard",), ("hardware", SIM, APP)) == []


def test_the_simulator_plays_the_world_not_the_controller():
    # the simulated table may use the bridge's transports and the table's virtual deck
    assert (
        _arrows(
            ("hardware",),
            (
                "dashboard",
                APP,
                SIM,
                "vision",
                "table_controller.live",
                "table_controller.sensing",
                "table_controller.store",
                "table_controller.views",
            ),
        )
        == []
    )
    assert _arrows((SIM,), (APP, "dashboard")) == []


def test_only_the_composition_root_imports_the_composition_root():
    assert _outside_app(_arrows(PACKAGES, (APP,))) == []


def test_rules_sensing_store_and_views_never_import_the_dashboard_hardware_or_app():
    assert _arrows(LOWER, ("dashboard", "hardware", APP)) == []


def test_no_project_module_is_loaded_by_a_name_in_a_string_and_the_cli_loads_none_by_name():
    """The commands are imported by plain statements (app/cli.py), so the import graph sees
    every part the composition root wires; no module anywhere loads one of ours by name."""
    assert imports_by_name(MODULES, dynamic_in=(APP,)) == []


def test_no_import_loop_between_modules():
    assert [loop for loop in import_loops(GRAPH) if loop not in PENDING_RULES_LOOPS] == []


def test_the_pending_loops_still_exist():
    """A loop the rules branch has ended leaves the list (then it is empty)."""
    assert [loop for loop in PENDING_RULES_LOOPS if loop not in import_loops(GRAPH)] == []


# --- privacy ------------------------------------------------------------------------------
def test_no_module_reaches_into_another_module_s_private_names():
    allowed = PENDING_RULES_API | PENDING_READ_PATH
    found = [f for f in private_accesses(MODULES) if f[2] not in allowed and (f[0], f[2]) not in FOREIGN]
    assert found == []


def test_the_pending_allowlists_name_only_accesses_that_still_exist():
    """An entry whose access is gone must go too (then the list shrinks to empty)."""
    used = {name for _, _, name in private_accesses(MODULES)}
    assert (PENDING_RULES_API | PENDING_READ_PATH) - used == set()
    assert {name for _, name in FOREIGN} - used == set()


# --- the dashboard serialises what the role filter decided --------------------------------
def test_the_dashboard_never_looks_for_card_codes_in_text():
    """A card a role may not see is left out by the views (``Sight.refusal`` for a refused
    entry's reason, ``Sight.words`` for the TL's typed words, ``for_role`` for the rest);
    the dashboard never masks by a regex of its own or the views' (issue 14 item 3)."""
    dashboard = {m: p for m, p in MODULES.items() if _in(m, "dashboard")}
    assert card_masking(dashboard) == []


# --- phases are enum members, not text ----------------------------------------------------
def test_phases_and_moments_are_compared_with_the_enum_members_never_with_text():
    assert phase_text_comparisons(MODULES) == []


# --- the checks themselves can fail -------------------------------------------------------
@pytest.fixture
def planted(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "pkg").mkdir()
    sources = {
        "__init__": "",
        "a": "from . import b\ndef _helper():\n    pass\nclass A:\n    def __init__(self):\n        self._mine = 1\n",
        "b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n"
        "def f(x):\n    from .a import A\n    return x._mine, A()._hidden\n",
        "c": "from .a import _helper\nclass C:\n    _hidden = 2\n    def g(self, o):\n"
        "        return self._hidden, super()._mine, o._unknown_anywhere\n",
    }
    for name, text in sources.items():
        (tmp_path / "pkg" / f"{name}.py").write_text(text)
    return module_files(tmp_path, ("pkg",))


def test_the_loop_finder_finds_a_loop_through_a_function_level_import_and_ignores_type_checking(planted):
    graph = import_graph(planted)
    assert graph["pkg.b"] == {"pkg.a"} and graph["pkg.a"] == {"pkg.b"}
    assert import_loops(graph) == [["pkg.a", "pkg.b"]]


def test_the_privacy_check_finds_foreign_private_names_and_spares_self_and_super(planted, tmp_path):
    found = private_accesses(planted, tmp_path)
    assert found == [("pkg/b.py", 6, "_hidden"), ("pkg/b.py", 6, "_mine"), ("pkg/c.py", 1, "_helper")]


def test_the_phase_check_finds_text_comparisons_and_spares_members_and_documents(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(
        "def f(e, d, doc, phase, Phase):\n"
        "    a = e.phase == 'trick'\n"
        "    b = phase in ('game_start', 'game_over')\n"
        "    c = d.phase.startswith('exchange')\n"
        "    x = 'final' != e.moment\n"
        "    return e.phase is Phase.TRICKS, phase in (Phase.DEAL,), doc['phase'] == 'tricks', e.type == 'deal'\n"
    )
    found = phase_text_comparisons(module_files(tmp_path, ("pkg",)), tmp_path)
    assert [(line, code) for _, line, code in found] == [
        (2, "e.phase == 'trick'"),
        (3, "phase in ('game_start', 'game_over')"),
        (4, "d.phase.startswith('exchange')"),
        (5, "'final' != e.moment"),
    ]


def test_the_flow_checks_find_a_lower_room_or_the_dashboard_importing_the_app_or_the_dashboard(tmp_path):
    files = {
        "table_controller/__init__.py": "",
        "table_controller/app/__init__.py": "",
        "table_controller/app/cli.py": "from dashboard import app\n",
        "table_controller/store/__init__.py": "def f():\n    import dashboard.app\n",
        "table_controller/views/__init__.py": "from hardware import virtual\n",
        "table_controller/rules/__init__.py": "from ..app import cli\n",
        "dashboard/__init__.py": "",
        "dashboard/app.py": "from table_controller.app.cli import main\n",
        "hardware/__init__.py": "",
        "hardware/virtual.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    graph = import_graph(module_files(tmp_path, ("table_controller", "dashboard", "hardware")))
    assert _arrows(LOWER, ("dashboard", "hardware", APP), graph) == [
        "table_controller.rules -> table_controller.app.cli",
        "table_controller.store -> dashboard.app",
        "table_controller.views -> hardware.virtual",
    ]
    assert _outside_app(_arrows(("table_controller", "dashboard"), (APP,), graph)) == [
        "dashboard.app -> table_controller.app.cli",
        "table_controller.rules -> table_controller.app.cli",
    ]


def test_the_by_name_check_finds_literal_project_names_and_any_dynamic_load_in_the_app(tmp_path):
    (tmp_path / "pkg" / "app").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text(
        "import importlib\n"
        "from importlib import import_module\n"
        "a = importlib.import_module('pkg.tools')\n"
        "b = import_module('json')\n"  # not ours
        "c = __import__('pkg')\n"
        "def lazy(table, name):\n"
        "    return importlib.import_module(table[name])\n"  # a variable, outside the app: allowed
    )
    (tmp_path / "pkg" / "app" / "__init__.py").write_text(
        "import importlib\n"
        "COMMANDS = {'serve': 'pkg.serve_cli'}\n"
        "def load(name):\n"
        "    return importlib.import_module(COMMANDS[name])\n"
    )
    found = imports_by_name(module_files(tmp_path, ("pkg",)), tmp_path, ("pkg",), dynamic_in=("pkg.app",))
    assert [(file, line) for file, line, _ in found] == [
        ("pkg/__init__.py", 3),
        ("pkg/__init__.py", 5),
        ("pkg/app/__init__.py", 4),
    ]


def test_the_card_masking_check_finds_imports_and_card_patterns_and_spares_other_texts(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(
        "import re\n"
        "from table_controller.views import CARD_CODE, sight\n"
        "from .notes import without_cards\n"
        "import table_controller.views.redact\n"
        "from table_controller.views.redact import x\n"
        "CARDS = re.compile(r'\\b(?:10|[2-9TJQKA])[SHDC]\\b')\n"
        "def f(t):\n"
        "    return re.sub('[2-9TJQKA][SHDC]', '(kort)', t), re.findall(r'\\w+', t), 'AS', '(kort)', re.compile('[')\n"
        "Card = Constraints(pattern=r'^(?:10|[2-9TJQKA])[SHDC]$')\n"
        "ANY = re.compile(pattern='.{2}')\n"
    )
    found = card_masking(module_files(tmp_path, ("pkg",)), tmp_path)
    assert [(line, what) for _, line, what in found] == [
        (2, "import CARD_CODE"),
        (3, "import without_cards"),
        (4, "import table_controller.views.redact"),
        (5, "import table_controller.views.redact"),
        (6, "'\\\\b(?:10|[2-9TJQKA])[SHDC]\\\\b'"),
        (8, "'[2-9TJQKA][SHDC]'"),
    ]


# --- every room says what it is -----------------------------------------------------------
def test_every_package_says_what_lives_there_and_what_it_may_import():
    silent = []
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            if len(doc) < 80 or "import" not in doc.lower():
                silent.append(name)
    assert silent == []
