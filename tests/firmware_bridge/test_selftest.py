"""``chicago-table link selftest`` (issue 22, part 4): the bench check list, played on
the virtual table by a scripted person at the bench."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import pytest

from firmware_bridge.client import SeatControllerClient
from firmware_bridge.selftest import BUTTONS, Bench, Options, SelfTest, summary
from hardware.virtual import NoiseModel, VirtualTable
from hardware.virtual.simtime import LoopClock, run_simulated

from .conftest import FAST

STACK = ["2C", "3C", "4C", "5C", "7D"]


class VirtualBench(Bench):
    """A person at the bench who does what they are told, on the virtual table."""

    def __init__(self, table: VirtualTable, answers: bool | None = True, skip_buttons=()) -> None:
        self.table = table
        self.answers = answers
        self.skip_buttons = skip_buttons
        self.told: list[str] = []

    def do(self, instruction: str) -> None:
        self.told.append(instruction)
        t = self.table
        if m := re.fullmatch(r"Lay the test tag alone on (\w+)\.", instruction):
            t.put("AS", m[1])
        elif m := re.fullmatch(r"Lay a stack of (\d+) tags on (\w+)\.", instruction):
            t.deal(m[2], STACK[: int(m[1])])
        elif m := re.fullmatch(r"(?:Take the (?:tag|stack) off|Clear) (\w+)[.:].*", instruction):
            for code in t.on_pad(m[1]):
                t.remove(code)
        elif instruction.startswith("Press each console button"):
            for name in BUTTONS:
                if name not in self.skip_buttons:
                    t.press(name)
        else:
            raise AssertionError(f"an instruction the bench cannot follow: {instruction}")

    def confirm(self, question: str) -> bool | None:
        return self.answers


def simulated_selftest(table_args: dict, bench_args: dict, broken=(), **options) -> tuple[list, VirtualTable]:
    """The check list on a virtual table in simulated time (the firmware on the loop's timers, the
    line in memory): the second a tag must stay read, and the 10 s the check
    waits for what never comes, pass at once.  ``broken``: pads whose reader is dead."""

    async def main():
        table = VirtualTable(**table_args, simulated=True)
        try:
            for pad in broken:
                table.fail_reader(pad)
            if options.get("tag") == "AS":
                options["tag"] = table.deck.uid("AS")
            opts = Options(wait_s=10.0, scan_ms=table.config.scan_ms, **options)
            async with SeatControllerClient(table.port, clock=LoopClock(), **FAST) as client:
                return await SelfTest(client, VirtualBench(table, **bench_args), opts).run(), table
        finally:
            table.close()

    return run_simulated(main())


def test_a_good_pn5180_board_passes_every_item():
    results, table = simulated_selftest(
        dict(noise=NoiseModel(stack_limit=1), seed=2, reader="pn5180"), {}, tag="AS", scans=40
    )
    assert all(c.ok for c in results), [c.line() for c in results if not c.ok]
    items = [c.item for c in results]
    assert items[0] == "link" and items[-2:] == ["LEDs", "buzzer"]
    for pad in ("seat1", "seat2", "seat3", "seat4", "tray"):
        assert f"reader {pad}" in items and f"tag on {pad}" in items and f"stack on {pad}" in items
    assert summary(results).startswith(f"{len(results)} of {len(results)} checks passed")
    shown = [(seat, colour) for _, seat, colour in table.leds.history]
    for seat in ("seat1", "seat2", "seat3", "seat4"):  # every colour really reached the LEDs
        assert [c for s, c in shown if s == seat][-6:] == ["green", "yellow", "red", "blue", "white", "off"]
    assert table.buzzer.buzzes == 1


def test_failures_are_said_in_words_per_item():
    # an MFRC522 build that reads one card of a stack per scan, a dead tray reader, a
    # console button that never reports, LEDs nobody saw
    results, _ = simulated_selftest(
        dict(noise=NoiseModel(stack_limit=1), seed=3),
        dict(answers=False, skip_buttons=("tl",)),
        broken=("tray",),
        pads=("seat1", "tray"),
        scans=10,
    )
    by_item = {c.item: c for c in results}
    assert by_item["reader tray"].ok is False and "offline (antenna-timeout)" in by_item["reader tray"].text
    assert "tag on tray" not in by_item  # a dead reader's pad is skipped
    assert by_item["tag on seat1"].ok
    stack = by_item["stack on seat1"]
    assert not stack.ok and re.search(r"read \d of 5 within 10 scans", stack.text) and "PN5180" in stack.text
    assert not by_item["buttons"].ok and by_item["buttons"].text.startswith("never reported: tl ")
    assert not by_item["LEDs"].ok and not by_item["buzzer"].ok
    assert summary(results).endswith("fix the failed items and run it again")


async def test_no_board_on_the_port_is_one_failed_item():
    with VirtualTable() as table:
        table.hang()
        async with SeatControllerClient(table.port, **FAST) as client:
            results = await SelfTest(client, VirtualBench(table), Options(connect_s=0.5)).run()
    assert [(c.item, c.ok) for c in results] == [("link", False)]
    assert "no answer from the seat controller" in results[0].text


def test_the_command_walks_the_bench_and_exits_by_the_verdict(table):
    cmd = [
        sys.executable,
        "-m",
        "table_controller.app.cli",
        "link",
        "selftest",
        table.port,
        "--pads",
        "seat2",
        "--only",
        "tag,leds",
        "--wait",
        "10",
        "--tag",
        table.deck.uid("AS"),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def bench() -> None:  # reads the instructions as a person would, and does them
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(">>> Lay the test tag alone on seat2"):
                table.put("AS", "seat2")
            elif line.startswith(">>> Take the tag off seat2"):
                table.remove("AS")

    reader = threading.Thread(target=bench)
    reader.start()
    proc.wait(timeout=60)
    reader.join(timeout=10)
    assert proc.returncode == 0, (lines, proc.stderr.read())
    assert lines[0].startswith(
        "självtest av platsstyrningen på"
    )  # the command's own line in Swedish; the checks the board's
    assert any(ln.startswith("PASS  link: SC-VIRTUAL answers, protocol 1") for ln in lines)
    assert f"PASS  tag on seat2: {table.deck.uid('AS')} read at once and held for 1 s" in lines
    assert lines[-1] == "3 of 3 checks passed: the board is ready"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--pads", "seat9"], "--pads"),
        (["--only", "leds,smoke"], "--only"),
        (["--tag", "XYZ"], "--tag"),
        (["--stack", "40"], "--stack"),
        (["--wait", "0"], "--wait"),
    ],
)
def test_bad_options_get_a_clear_message(table, args, message):
    out = subprocess.run(
        [sys.executable, "-m", "table_controller.app.cli", "link", "selftest", table.port, *args],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
