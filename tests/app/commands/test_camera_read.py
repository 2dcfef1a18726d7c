"""``chicago-table camera read`` as a user runs it: a real subprocess.

Until ``table_controller/app/commands/camera.py`` (issue 7) exists, the same two functions it will delegate
to (``add_read_arguments``, ``main_read``) are run through a small argparse shim
in a subprocess, so exit codes, stdout and stderr are exercised the same way.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.photo.annotate import FACE
from vision.photo.scene_reader import DEFAULT_MIN_CONFIDENCE  # camera read uses the scene reader (issue 17)
from vision.photo.synth import cover_with_hand, render_photo

REPO = Path(__file__).resolve().parents[3]
SHIM = (
    "import argparse, sys; from vision import photo_reader as r; "
    "p = argparse.ArgumentParser(prog='chicago-table camera read'); r.add_read_arguments(p); "
    "sys.exit(r.main_read(p.parse_args(sys.argv[1:])))"
)


def _has_camera_read() -> bool:
    if importlib.util.find_spec("table_controller.app.commands.camera") is None:
        return False
    return "read" in (REPO / "table_controller" / "app" / "commands" / "camera.py").read_text()


def camera_read(*args: str) -> subprocess.CompletedProcess:
    """The command in English (``--lang en``): these tests are about what it reads and how it
    lists it; its Swedish is tests/app/commands/test_developer_words.py's."""
    exe = Path(sys.executable).with_name("chicago-table")
    if _has_camera_read() and exe.exists():
        cmd = [str(exe), "camera", "read", *args, "--lang", "en"]
    else:
        cmd = [sys.executable, "-c", SHIM, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=REPO)


@pytest.fixture(scope="module")
def pictures(tmp_path_factory, dev_photos):
    d = tmp_path_factory.mktemp("pics")
    # Photos the shipped networks read (see test_recognise.KNOWN_GOOD): these tests are
    # about the command, not about accuracy (that is the benchmark's job).
    wanted = ["IMG_20220921_193929.jpg", "IMG_20220921_194010.jpg"]
    chosen = sorted((p for p in dev_photos if p.file.rsplit("/", 1)[-1] in wanted), key=lambda p: p.file)
    files = []
    for i, p in enumerate(chosen):
        files.append((str(shutil.copy(p.path, d / f"dev{i}.jpg")), set(p.chicago_cards)))
    rendered = render_photo(8, severity=0.4)
    cv2.imwrite(str(d / "rendered.png"), rendered.image)
    files.append((str(d / "rendered.png"), {"QH"}))
    (d / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    (d / "notes.txt").write_text("not a picture\n")
    return d, files


def test_json_reads_every_picture_and_reports_bad_ones(pictures):
    d, files = pictures
    names = [files[0][0], str(d / "corrupt.jpg"), files[1][0], str(d / "notes.txt"), files[2][0]]
    run = camera_read(*names, "--json")
    assert run.returncode == 2, run.stderr  # the files it could not read: bad input, as every command's
    assert "Traceback" not in run.stderr
    out = json.loads(run.stdout)
    assert [e["file"] for e in out["images"]] == names
    by_file = {e["file"]: e for e in out["images"]}
    for name, truth in files:
        entry = by_file[name]
        assert "error" not in entry
        assert {c["card"] for c in entry["cards"]} == truth
        for c in entry["cards"]:
            assert DEFAULT_MIN_CONFIDENCE <= c["confidence"] <= 1.0
            assert len(c["corners"]) == 4 and all(len(pt) == 2 for pt in c["corners"])
    for bad in ("corrupt.jpg", "notes.txt"):
        entry = by_file[str(d / bad)]
        assert "not a picture" in entry["error"] and entry["cards"] == []


def test_readable_list_and_annotated_pictures(pictures, tmp_path):
    d, files = pictures
    run = camera_read(files[2][0], files[0][0], "--annotate", str(tmp_path / "seen"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"{files[2][0]}: 1 card"
    assert lines[1].split()[0] == "QH"
    drawn = sorted(p.name for p in (tmp_path / "seen").iterdir())
    assert drawn == ["dev0.read.png", "rendered.read.png"]
    original = cv2.imread(files[2][0])
    marked = cv2.imread(str(tmp_path / "seen" / "rendered.read.png"))
    assert marked.shape == original.shape and (marked != original).any()


def test_an_empty_picture_lists_no_card(tmp_path):
    cv2.imwrite(str(tmp_path / "empty.png"), render_photo(5, codes=[], severity=0.4).image)
    run = camera_read(str(tmp_path / "empty.png"), "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"images": [{"file": str(tmp_path / "empty.png"), "cards": []}]}


def test_a_face_down_card_is_listed_as_back(tmp_path):
    photo = render_photo(64, codes=[None, "7D"], severity=0.3)
    cv2.imwrite(str(tmp_path / "mixed.png"), photo.image)
    run = camera_read(str(tmp_path / "mixed.png"), "--json")
    assert run.returncode == 0, run.stderr
    (entry,) = json.loads(run.stdout)["images"]
    assert sorted(c["card"] for c in entry["cards"]) == ["7D", "back"]
    run = camera_read(str(tmp_path / "mixed.png"), "--json", "--no-backs")
    assert [c["card"] for c in json.loads(run.stdout)["images"][0]["cards"]] == ["7D"]


def test_bad_options_are_refused_clearly(pictures):
    d, files = pictures
    run = camera_read(files[0][0], "--min-confidence", "1.5")
    assert run.returncode == 2 and "not between 0 and 1" in run.stderr and "Traceback" not in run.stderr
    run = camera_read("--json")
    assert run.returncode == 2 and "IMAGE" in run.stderr


def test_help_explains(pictures):
    run = camera_read("--help")
    assert run.returncode == 0
    for word in (
        "--json",
        "--annotate",
        "--min-confidence",
        "confidence",
        "unknown",
        "back",
        "--no-backs",
        "--no-faces",
    ):
        assert word in run.stdout


def test_vision_stays_below_the_controller_and_needs_no_torch():
    code = (
        "import sys, vision.photo_reader, vision.photo.recognise, vision.photo.annotate; "
        "r = vision.photo.recognise.Recogniser.load(); "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('table_controller', 'dashboard', 'torch')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_face_up_card_whose_corners_a_hand_covers_is_counted(tmp_path):
    # rendered seed 7: the QD lies whole in view, both index corners under a hand
    # (synth.cover_with_hand); the face detector finds it (issue 17)
    photo = render_photo(7, codes=["KS", "7H", "QD"], severity=0.3)
    (card,) = [c for c in photo.cards if c.code == "QD"]
    cv2.imwrite(str(tmp_path / "hand.png"), cover_with_hand(photo.image, card.index_boxes, random.Random(7)))
    run = camera_read(str(tmp_path / "hand.png"), "--json")
    assert run.returncode == 0, run.stderr
    (entry,) = json.loads(run.stdout)["images"]
    assert entry["face_up_unnamed"] == 1
    assert "QD" not in {c["card"] for c in entry["cards"]}
    run = camera_read(str(tmp_path / "hand.png"), "--annotate", str(tmp_path / "seen"))
    assert run.returncode == 0 and "and 1 face-up card not named" in run.stdout.splitlines()[0]
    # the annotated picture shows that card, in purple, where it lies
    purple = (cv2.imread(str(tmp_path / "seen" / "hand.read.png")) == FACE).all(axis=2)
    x0, y0, x1, y1 = card.box
    assert purple[int(y0) - 5 : int(y1) + 6, int(x0) - 5 : int(x1) + 6].sum() > 100
    run = camera_read(str(tmp_path / "hand.png"), "--json", "--unknown")
    unknown = [c for c in json.loads(run.stdout)["images"][0]["cards"] if c["card"] == "unknown"]
    assert any(
        c["why"] == "face" and len(c["corners"]) == 4 and c["corners"][1][0] - c["corners"][0][0] > 100 for c in unknown
    )
    assert all("why" not in c for c in json.loads(run.stdout)["images"][0]["cards"] if c["card"] != "unknown")
    # the list says why a line is unknown, and its first line counts only named cards
    run = camera_read(str(tmp_path / "hand.png"), "--unknown")
    head, *lines = run.stdout.splitlines()
    assert any(
        line.split()[0] == "unknown" and line.endswith("(a whole face-up card; its index corners not read)")
        for line in lines
    )
    named = sum(line.split()[0] != "unknown" for line in lines)
    cards = f"{named} card{'s' if named != 1 else ''}{'' if named else ' seen'}"
    assert head.startswith(f"{tmp_path / 'hand.png'}: {cards}, and 1 face-up card not named")
    run = camera_read(str(tmp_path / "hand.png"), "--json", "--no-faces")
    assert "face_up_unnamed" not in json.loads(run.stdout)["images"][0]


def test_a_card_named_from_its_face_is_listed_with_no_faces_too():
    """A real overhead camera's frame (edje's validation photo cam_image25, never learnt
    from) whose KH no index names: the face classifier names it from its face, at the
    threshold, outlined where its face lies.  It is a card: --no-faces, which leaves out
    the faces no card is named from, lists it too."""
    from vision.photo import scenes_data

    path = next(p.path for p in scenes_data.load_scenes() if p.file == "edje/cam_image25.jpg")
    run = camera_read(str(path), "--json")
    assert run.returncode == 0, run.stderr
    (card,) = json.loads(run.stdout)["images"][0]["cards"]
    assert card["card"] == "KH" and card["confidence"] == DEFAULT_MIN_CONFIDENCE and card["from"] == "face"
    xs, ys = [p[0] for p in card["corners"]], [p[1] for p in card["corners"]]
    assert max(xs) - min(xs) > 150 and max(ys) - min(ys) > 150  # the whole face, no index corner
    run = camera_read(str(path), "--json", "--no-faces")
    assert run.returncode == 0 and json.loads(run.stdout)["images"][0]["cards"] == [card]
    # the list says so
    head, line = camera_read(str(path)).stdout.splitlines()
    assert head.endswith(": 1 card") and line.split()[:2] == ["KH", "0.97"]
    assert line.endswith("(read from its face; no index corner read)")


def test_a_card_named_from_its_index_corners_is_not_marked_from_its_face():
    """Only a card named from its face alone says so: a single-card photo of the
    validation fold (named from its index corners) has no "from"."""
    from vision.photo.dataset import load_photos

    photo = next(p for p in load_photos() if p.file == "rf_phone_2022/IMG_20220921_194048.jpg")
    assert photo.validation and set(photo.in_view) == {"KH"}
    run = camera_read(str(photo.path), "--json")
    cards = json.loads(run.stdout)["images"][0]["cards"]
    assert [c["card"] for c in cards] == ["KH"] and "from" not in cards[0]
    assert "read from its face" not in camera_read(str(photo.path)).stdout
