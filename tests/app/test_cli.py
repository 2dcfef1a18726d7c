"""``chicago-table`` itself: every listed command is its own module's, and the list alone
(``--help``) imports none of them, so it stays instant and a camera command never loads
the web stack."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from table_controller.app.cli import COMMANDS, main
from table_controller.app.words import speaking


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_answers_with_its_own_module_s_options(name, capsys):
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    swedish = capsys.readouterr().out  # argparse's own words and the command's line in Swedish
    assert swedish.startswith(f"användning: chicago-table {name} ") and "visa den här hjälpen och avsluta" in swedish
    with pytest.raises(SystemExit) as done:
        main([name, "--help", "--lang", "en"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    # the options its module declares, on a parser of the same name and description
    module = importlib.import_module(f"table_controller.app.commands.{name}")
    with speaking("en"):  # argparse's words go through the console's catalogue (argwords.install)
        expected = argparse.ArgumentParser(prog=f"chicago-table {name}", description=COMMANDS[name])
        module.add_arguments(expected)
        assert shown == expected.format_help()


def test_the_list_of_commands_imports_none_of_them():
    code = (
        "import sys, contextlib, io\n"
        "from table_controller.app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main([])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('dashboard', 'vision', 'firmware_bridge', 'hardware', 'uvicorn', 'fastapi', 'cv2')\n"
        "    or m.startswith('table_controller.') and m not in ('table_controller.app', 'table_controller.app.cli',"
        " 'table_controller.app.argwords', 'table_controller.app.words'))\n"
        "print(code, 'KOMMANDO' in out.getvalue(), loaded)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["0", "True", "[]"]


def test_the_list_of_commands_is_said_in_swedish_first_the_version_flag_too(capsys):
    """``chicago-table --help``: argparse's own words in the language spoken (Python 3.11's
    argparse leaves --version's help in English: stop 70)."""
    with pytest.raises(SystemExit):
        main(["--help"])
    swedish = capsys.readouterr().out
    assert "--version   visa programmets version och avsluta" in swedish and "show program" not in swedish, swedish
    with pytest.raises(SystemExit):
        main(["--help", "--lang", "en"])
    assert "--version   show program's version number and exit" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "headings"),
    [
        ("setup", ["bordet:", "platsstyrningen och kortleken:", "kameran (valfri):", "webbsidorna:"]),
        ("run", ["bordet som tjänst (med --config eller --data):"]),
    ],
)
def test_an_officials_command_groups_its_options_under_swedish_headings(name, headings, capsys):
    """The option groups' headings were English in Swedish help (stop 70's run-through)."""
    with pytest.raises(SystemExit):
        main([name, "--help"])
    shown = capsys.readouterr().out
    assert all(f"\n{h}\n" in shown for h in headings), shown


def test_an_unknown_option_is_refused_with_its_commands_usage(capsys):
    """``demo --bogus`` printed the list of commands' usage (stop 70's run-through)."""
    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--bogus"])
    assert exit_.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("användning: chicago-table demo ") and said.endswith(
        "chicago-table demo: fel: okända argument: --bogus\n"
    ), said
    with pytest.raises(SystemExit):
        main(["demo", "--bogus", "--lang", "en"])
    assert capsys.readouterr().err.endswith("chicago-table demo: error: unrecognized arguments: --bogus\n")


def test_an_unknown_command_is_refused_with_the_list():
    run = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "nosuch"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2
    said = run.stderr  # Swedish first, argparse's words too
    assert "chicago-table: fel: argument KOMMANDO: ogiltigt val: 'nosuch'" in said and "'serve'" in said, said
    assert "Traceback" not in said
    run = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "nosuch", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "chicago-table: error: argument COMMAND: invalid choice: 'nosuch'" in run.stderr, run.stderr


def test_a_command_whose_part_is_not_installed_is_said_in_the_words_spoken():
    """A command whose module cannot be imported (a part left out of an install) is refused
    with exit 2, in Swedish first (it was English alone), naming what is missing."""
    code = (
        "import sys; sys.modules['table_controller.app.commands.camera'] = None; "
        "from table_controller.app.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    said = {}
    for lang in ("sv", "en"):
        run = subprocess.run(
            [sys.executable, "-c", code, "camera", "--lang", lang], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
        said[lang] = run.stderr
    assert "kommandot 'camera' finns inte i den här installationen:" in said["sv"], said
    assert "the 'camera' command is not available:" in said["en"], said
    assert "table_controller.app.commands.camera" in said["sv"]


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--data", "{data}", "--port", "{port}"],
        ["demo", "--direct", "--data", "{data}", "--port", "{port}"],
        ["run", "--virtual", "--bots"],
        ["run", "--virtual", "--data", "{data}", "--dashboard-port", "{port}"],
    ],
    ids=["serve", "demo", "run-bots", "run-service"],
)
def test_a_bad_shot_clock_is_refused_in_words_before_anything_starts_d11(argv, tmp_path):
    """Every command that runs a table takes the event's shot clocks (D11: "configurable per
    event"); a clock it does not know is named, and no table, folder or log is made."""
    from tests.ports import free_port

    data = tmp_path / "data"
    args = [a.format(data=data, port=free_port()) for a in argv] + ["--shot-clocks", "play=20,spel=10"]
    run = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", *args], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert (
        "--shot-clocks" in run.stderr and "ingen betänketid 'spel'; klockorna är exchange, chicago, play" in run.stderr
    )
    assert not data.exists() and list(tmp_path.iterdir()) == []
