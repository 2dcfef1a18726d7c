"""Read every card in a crowded real frame (issue 17): ``camera read``'s reader.

The single-card reader (:mod:`.recognise`) shows the whole picture to its detector
at 320 x 320, where a table frame's indices are 10-40 px: too small, so most are
never found.  This reader uses the same networks but

- *scales*: the detector (fully convolutional) sees the picture at two scales
  (``SCALES``), its aspect kept, so a small index is seen at about the size the
  detector learnt; candidates from all passes are merged by NMS, with no cap on
  how many (only weak ones, below ``MIN_DET``, are not read);
- *both polarities*: the detector also sees the inverted picture, and a crop that
  is mostly dark (light glyphs on a dark face, as on the black and gold deck, or
  dark glyphs in a dim photo) is read both as it is and with its lightness
  inverted (``dark_to_light``), keeping the reading that names an index more
  surely (``POLARITY``);
- *grey photos*: a card read with a black suit on corners with no colour is
  read again with its ink drawn red, and is "unknown" when the suit's colour
  then flips (``GREY_SUIT``): the colour, not the pips' shape, had decided it;
- *a second opinion*: a crop the single-card reader's classifier is unsure of is
  read again by a classifier fine-tuned on real scenes (``SCENE_CLASSIFIER_FILE``,
  ``CASCADE``), so what the first reads surely stays as it was;
- *a second witness*: a card the map leaves unsure (``WITNESS``) is shown to the
  single-card reader, which looks at the whole picture its own way (its detector
  at 320 x 320, its classifier with a turned look, its own calibration); the card
  is named when that reader names it too, as surely as it names a card itself;
  one whose best corner was read inverted (light glyphs on a dark face, which the
  single-card reader does not read) is named when the dark classifier
  (``DARK_CLASSIFIER_FILE``) reads one of its inverted corners as that card as surely
  as the threshold asks;
- *honest confidence*: the two corners of one card are not independent witnesses
  (a deck whose clubs look like spades fools both alike), so the confidence is a
  logistic map (``card_features``) of the best corner's reading, fitted on real
  photos that are not held out (``vision/photo/scene_calibrate.py``), with a
  distinct second corner's probability as one of its inputs: what a second corner
  is worth is measured, not assumed.  The two classifiers' probabilities mean
  different things (a sure reading of the first, a reading of the second where
  the first was unsure), so each path has its own map (``SceneRead.second``).

    >>> from vision.photo.synth import render_photo
    >>> frame = render_photo(seed=5).image
    >>> reader = SceneReader.load()
    >>> [(c.card, c.confidence > 0.9) for c in reader.read(frame) if c.card != "unknown"]
    [('TC', True), ('5H', True)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from ..errors import VisionError
from . import nets, spec
from .recognise import (
    CLASSIFIER_FILE,
    COLOUR,
    DETECTOR_FILE,
    DISPUTED,
    FACE,
    MODELS,
    UNKNOWN,
    UNSURE,
    CardReading,
    IndexRead,
    ModelMissing,
    Recogniser,
    card_outline,
    card_score,
    holds,
    iou,
    outline,
    softmax,
)
from .recognise import (
    DEFAULT_MIN_CONFIDENCE as PHOTO_MIN_CONFIDENCE,
)
from .recognise import (
    _peaks as _grid_peaks,
)

SCENE_CALIBRATION_FILE = "scene_calibration.json"
# The classifier fine-tuned on real scenes (see the README: how it was made); the
# single-card reader keeps its own (index_classifier.onnx), which this one would
# lower on single cards of the photo reader's own calibration.  Without the file
# the scene reader reads with the single-card reader's classifier.
SCENE_CLASSIFIER_FILE = "scene_classifier.onnx"
# The index detector of the closer looks (``CLOSER``), taught to find in a webcam's
# soft frame what the shipped one finds in the sharp frame (``python -m
# vision.photo.distill --detector``; vision/photo/NOTEBOOK.md, "The closer looks'
# detector taught by itself").  The whole picture is still seen by the single-card
# reader's detector (index_detector.onnx); without the file the closer looks use that
# one too.
CLOSER_DETECTOR_FILE = "closer_detector.onnx"
# The dark classifier: the scene classifier fine-tuned on the black and gold deck's
# training corners (light glyphs on black faces) read inverted as the reader shows
# them (``dark_to_light``; ``python -m vision.photo.dark``).  It is the second witness
# of a card the map leaves unsure whose best corner was read inverted (``witnessed``),
# named when the dark classifier reads one of its inverted corners as that card at the
# threshold (0.97) or more.  On the validation photos it named 4 more of the deck's 43
# cards (26 -> 30), the mosaics 7 more, none wrong (NOTEBOOK.md, stop 54).  Measured and not
# shipped: the dark classifier reading those crops in the first's or the second's place
# (the maps fitted again: `edje` lost 3-8 cards, its second opinions judged by a map
# fitted without the deck's inverted reads), a witness of two corners (no card gained),
# and one taught on webcam looks too (a wrong card named).  Without the file no card
# read inverted has a second witness.
#
# Since stop 55 it can also veto (``dark_disputed``): a named card whose best corner was
# read inverted is "unknown" when the dark classifier reads none of its inverted corners
# as that card.  The first path's map is a constant (0.994 for any sure first read), blind
# to a print the first classifier never learnt: in webcam frames it named a 2S as 2D and
# a 4C as 4S, one soft corner each read at 0.93-0.95.  Of the 147 cards the validation
# photos and their mosaics name whose best corner was read inverted, the dark classifier
# reads all 145 right ones as theirs and neither wrong one (NOTEBOOK.md, stop 55).  The
# witness and the veto read with its int8 copy (``INT8``): 0.57 ms a crop against 1.65.
DARK_CLASSIFIER_FILE = "dark_classifier.onnx"
# Int8 copies of the networks (``python -m vision.photo.quantize``): the scene reader
# reads with them when they are there.  Shipped: the two classifiers, in 0.6 of the
# float networks' CPU time, as many cards named right and wrong on the validation
# folds (NOTEBOOK.md, "Speed: int8 classifiers"), and since 30 November the closer looks'
# detector, in half its CPU time (a crowded frame 0.88 of its time; the folds the same
# 213 cards, NOTEBOOK.md "Speed: the closer looks' detector in int8"), and since stop 55 the
# dark classifier (1,305 of 1,313 crops read as the float network, in 0.35 of its time).
# The whole picture's
# int8 detector was measured and is not shipped (3 cards fewer on the folds).  The
# single-card reader, also as the second witness, keeps the float networks its own
# calibration was fitted on.
INT8 = {
    DETECTOR_FILE: "index_detector.int8.onnx",
    CLOSER_DETECTOR_FILE: "closer_detector.int8.onnx",
    CLASSIFIER_FILE: "index_classifier.int8.onnx",
    SCENE_CLASSIFIER_FILE: "scene_classifier.int8.onnx",
    DARK_CLASSIFIER_FILE: "dark_classifier.int8.onnx",
}
# The scene reader's first classifier, which reads every crop: one of the two members
# of the single-card classifier's int8 ensemble alone (``quantize.py`` cuts it out of
# ``INT8[CLASSIFIER_FILE]``, weights and quantization as they are there), in half the
# ensemble's CPU time.  The scene classifier, which reads only the crops the first is
# unsure of, stays an ensemble.  Measured on the validation folds (the map fitted
# again for each, out of fold at 0.97): the ensemble 207 cards named, 1 wrong; the
# second member 209, 1 wrong; the first 202, 1 wrong (the scene classifier cut to one
# member too: 203 with the second, 177 with the first).  NOTEBOOK.md,
# "Speed: one member of the first classifier".  Without the file the ensemble reads.
FIRST_CLASSIFIER_FILE = "index_classifier.first.int8.onnx"
FIRST_MEMBER = 1
# The face detector: whole face-up cards (issue 17), so that a card whose index
# corners are covered (a hand, another card) is at least counted.  Optional: without
# the file no face-up card goes unnamed-but-counted.  Made by ``train --only faces``.
FACE_DETECTOR_FILE = "face_detector.onnx"
# The scales the detector sees the picture at, 1.0 being its short side at the
# detector's 320 px (as the single-card reader sees a 640 px photo).  Chosen on the
# photos that are not held out: two scales found as many cards as 2x3 overlapping
# tiles at a sixth of their candidates; 1.8 rather than 1.6 found 2-3 % more of
# the multi-card photos' cards but takes a 1280x720 frame from 128 to 159 ms.  With
# the scene classifier's second opinion, on the validation folds (157 photos, out of
# fold, at 0.97), 1.4 read as many cards right as 1.6 (176; 1 wrong of 183 against 1
# of 182) in three quarters of the time (CPU a frame about 150 against 210 ms); 1.3
# read fewer (161) and named 2 wrong.
SCALES = (1.0, 1.4)
# The inverted picture (light glyphs on dark faces) is seen at both scales too.
# Measured on the photos that are not held out (out of fold, each threshold's map
# refitted): the second scale lifted the black and gold deck's recall from 0.18 to
# 0.38 at the same share of wrong cards (2 of 508 named at 0.97; at scale 1 only 1
# of 459 at 0.96), the other subsets level (edje 0.63, dev 0.84-0.86); its cost is
# about 60 ms more a 1280x720 frame (the detector once more, 5 more crops a frame).
# The second scale is SCALES' (the same choice as there).  The inverted picture at
# scale 1 is not seen: on the validation folds (157 photos, out of fold, at 0.97,
# a map per path refitted each time) without it the black and gold deck gave 23 of
# 43 cards against 19 (its small indices' candidates at scale 1 had suppressed the
# better ones of the larger scale), single cards 63 of 66 against 64, the others
# level, 1 wrong either way; a 1280x720 frame needs one detector pass fewer (about
# 18 of 200 ms) and about one crop fewer.
INVERT_SCALES = SCALES[-1:]
DET_THRESHOLD = 0.1
# Candidates weaker than this are not read: on photos not held out, reading them all
# (3x the candidates) named no more cards at raw 0.9.
MIN_DET = 0.2
NMS_IOU = 0.3
DARK_CROP = 0.38  # a crop whose median brightness (0..1) is below this is read inverted
# Which dark crops are read inverted: "median", every one (light glyphs on a dark
# face, as on the black and gold deck); "glyphs", only those whose ink is lighter
# than their paper (light_glyphs), so a dim photo's dark glyphs on grey paper are
# read as they are; "both", a dark crop is read first the way its ink suggests
# ("glyphs") and, unless that names a card at least CASCADE surely, the other way
# too, and the reading that names an index more surely is kept (a card beats "no
# index" and a joker): no fixed rule decides a dim photo's polarity.
# Measured (issue 17, branch vis17b): "glyphs" read 3 more held-out single cards
# (0.885 -> 0.923: an AH, a JC and a 5S of dim photos, read inverted as "no index")
# and 1 more on the validation fold, but it also let both corners of a QH in a grey
# held-out photo be read as QS at 0.97 or more (the second corner had been read
# inverted, as QC, before): a wrong card.  "both" (branch vis31) was chosen on the
# photos that are not held out (the validation folds and the training parts, 744
# photos, at 0.97): it named 903 cards right there against 881 ("median") and 894
# ("glyphs"), with the same 4 wrong; reading every dark crop both ways instead of
# stopping at a sure card named the same 903.  That grey QH is GREY_SUIT's work.
POLARITY = "both"
POLARITIES = ("median", "glyphs", "both")
# A dark crop is read the second way only when the detector is at least this sure
# of it: most dark candidates are no index (the dark parts of a cluttered scene),
# and reading them all twice took a 1280x720 frame from 137 to 158 ms (median,
# interleaved runs, one thread).  Chosen on the photos that are not held out: 0.4
# and 0.3 named 900 cards right of the 903 (3 fewer: an edje rank, a single card,
# a black and gold card), no wrong one more, at 1.3 and 0.5 second reads a photo
# instead of 3.6; 0.4 costs about 3 ms a frame (138 against 135 ms), 0.3 about 5.
BOTH_WAYS = 0.4
# ... and a crop read inverted first (its glyphs lighter than its paper) is read as
# it is only from this detection score: on the black and gold deck's frames (light
# glyphs on dark faces) reading them from 0.4 took a 1280x720 frame from 146-151 to
# 157-160 ms (interleaved runs, its 33 held-out photos scaled) and gained no card
# there (not held out: 118 either way); from 0.5 the frame is as before (150 against
# 151 ms), and 1 edje rank of 898 cards right is lost (not held out); from 0.6, 3.
LIGHT_BOTH_WAYS = 0.5
# A crop whose colour (90th percentile of its saturation, 0..255) is below this has
# none to tell red suits from black: a grey photo, or a dim one.
GREY_SAT = 30
# A card named with a black suit whose every corner is grey is checked for its
# suit's colour (suit_colour_doubt): its corners are read again with their ink drawn
# red, and when the same rank in a red suit is then at least this likely, the
# colour the photo lacks decided the suit, not the pips' shape, and the card is
# "unknown".  Chosen on the photos that are not held out (744, at 0.97; no weight
# is fitted): the one grey suit error named there that the test sees (a JC for a
# JS, both corners, 0.99) scores 0.744; 0.7, for a margin below it, holds back 2
# right cards of 900 (0.74: 1; 0.5: 3).  The other grey error there (a 6H read as
# 6S at 0.99) scores below 0.15: a red card read black is not what it looks for.
GREY_SUIT = 0.7
# Chosen on the photos that are not held out, out of fold (python -m
# vision.photo.scene_calibrate): the lowest threshold there with fewer than 0.5 wrong
# cards in 100 named, half the target, for margin on decks never seen (2 of 508;
# 0.96 gave 4 of 526, 0.95 5 of 549).  Stop 57 measured 0.95, 0.93 and 0.90 again
# with today's reader (NOTEBOOK.md): each names a 3S of a grey photo 3H (0.957), which
# test_scene_reader guards, for 12-18 cards more of about 1,000 in the mosaics.
DEFAULT_MIN_CONFIDENCE = 0.97
# How sure the dark classifier must be of an unsure card read inverted to witness it
# (``_dark_witnessed``), and no less under a lower threshold: at 0.9 two wrong 5S of
# the black and gold deck's validation photos came in (stop 55).
DARK_SURE = 0.97
# A crop the single-card reader's classifier reads less surely than this (a card
# or "no index" alike) is read again by the classifier fine-tuned on real scenes
# (SCENE_CLASSIFIER_FILE), whose reading then counts instead: a second opinion
# where the first is unsure, so what the first reads surely (single cards of the
# deck it learnt) stays as it was, at the cost of reading the unsure crops twice.
# On the validation folds (out of fold, at 0.97) 0.9 named the most cards:
# 0.8 and 0.97 named 174 and 180 cards against 183, 1 wrong each.
CASCADE = 0.9
# ... except a crop it reads as no index at least this surely: on the validation
# folds (out of fold, at 0.97) not asking again about those left 3.2 crops a photo
# to the second opinion instead of 4.0 with as many cards named (edje 88 of 109
# against 87, the others level, 1 wrong either way); at 0.6, 2.5 crops, but edje 85.
NONE_SURE = 0.8
# Readings with a probability in [lo, hi) are read a second time, upside down.
# Off: measured on the photos not held out, a second look at readings in
# [0.3, 0.97) lifted the black and gold deck's recall 0.325 -> 0.341 (the others
# level) but took a 1280x720 frame from 144 to 159 ms, over the 150 ms budget.
SECOND_LOOK = (1.0, 1.0)
# A crop read unsurely (a card below CASCADE, "no index" below NONE_SURE) whose index
# lies turned (``skew``: its edges' direction modulo a quarter turn, from its gradients)
# by at least DESKEW[0] degrees, that direction at least DESKEW[1] coherent (0: no
# direction, 1: every edge one way), is cut again turned upright and read once more;
# the reading that names an index more surely counts (``_better``).  The classifiers
# learnt quarter turns and a few cards at any angle, and an overhead camera sees cards
# at every angle: the validation photos turned by 45 degrees named edje 91 of 109 cards
# against 103 upright (on the same canvas unturned: a turned photo's cards are smaller),
# dev 81 -> 75.  With DESKEW (stop 52): turned by 45, edje 77 -> 82 and dev 75; by 30
# and upright, the same as without (86; 103 and 81).  Validation folds (out of fold at
# 0.97) 213 named, 0 wrong, as without; mosaics 966 -> 969 named, 2 wrong as without;
# every photo, held out or not: 4 -> 2 wrong of 1,224 named.  CPU (paired, the median of
# each frame's ratio): a 1280x720 frame x1.004, a crowded 2x2 webcam frame x1.015, a
# 3x3 one x1.078.  Measured and not shipped: every crop whose index lies turned read
# turned upright instead of as it is, sure or not: from 15 degrees (0.3) the folds 210
# (the black and gold deck 26 -> 24); from 10 (0.2) and 5 (0.1), the photos turned by
# 45 edje 82 and 81, dev 74, upright edje 102 (one wrong card at 5).  None: no turned
# second reading.
DESKEW: tuple[float, float] | None = (15.0, 0.3)
# A closer look's part (a card's face) whose edges lie turned by at least TURN_LOOKS[0]
# degrees, TURN_LOOKS[1] coherent (``skew`` of the part shrunk to TURN_LOOK_SIZE px), is
# turned upright before its detector sees it (``_upright``).  The validation photos turned
# by 45 degrees left 13 of edje's 121 cards with no candidate at all, against 2 on the same
# canvas unturned: the index detector, not the classifiers, misses a diagonal index.  With
# it (stop 52; on top of DESKEW): turned by 45, edje 82 -> 87; by 30, 86 -> 93; dev 75 and
# 81 and upright edje 103 / dev 81 as without.  Validation folds 213 named, 0 wrong, as
# without; mosaics 969 -> 968 (edje 2x2 and 3x3 one fewer each, webcam 3x3 and dev webcam
# 3x3 one more), 2 wrong as without; CPU x1.007 a 1280x720 frame, x1.006 a crowded 2x2
# webcam frame, x0.994 a 3x3 one (paired).  Dark faces' looks are not turned (below,
# ``_look_closer``).  From 15 degrees: the same turned photos but the mosaics 966
# (coherence 0.3) and 965 (0.5): a crowded part's edges are other cards' as much as its
# own.  None: every look sees its part as it is.
TURN_LOOKS: tuple[float, float] | None = (20.0, 0.3)
TURN_LOOK_SIZE = 96
# A face too large for a closer look (CLOSER_SIZE: it fills most of the picture, where the
# whole picture's detector sees its corners at their best) is looked at all the same when
# its part lies turned by TURN_LOOKS' test, seen upright; never when it lies upright or is
# a dark face.  The dev validation photos turned by 45 degrees had lost 9 of their 84 cards
# against the same canvas unturned, and in the 7 photos that lost one the faces found were
# 0.7 to 0.97 of the short side: never looked at.  With it (stop 53): dev turned by 45
# degrees 75 -> 76, edje by 30 93 -> 94 (the others not lower; the rest of dev's losses
# are indices found and read unsurely); the validation folds 213 named, 0 wrong, and the
# mosaics 968 (2 wrong), each card as without; CPU x1.004 on 1280x720 frames (paired).
TURN_LARGE = True
# A picture whose white is off (a warm lamp's cast, a dim room) is read white-balanced:
# its white point, each channel's WHITE_BALANCE[0] percentile (a card's face is the
# whitest thing on a table), is scaled to WHITE_BALANCE[1] in every channel, by at most
# WHITE_GAIN.  Only when the channels' gains differ by WHITE_BALANCE[2] or more, or the
# white point's darkest channel is under WHITE_BALANCE[3]: a picture whose white is
# white enough is read as it is.  The validation photos made warm (blue x0.65, green
# x0.9, red x1.1), cool (blue x1.15, red x0.8), dimmed to 0.45, and warm and dim named
# 801 cards; with it 843 (stop 53), none wrong either way; as they are, as many.
# At (1.1, 180) a quarter of the real photos were balanced (their own light: white
# points up to 1.2 apart, or 145-180), and with the map fitted again the folds named
# 211; at (1.3, 140) 213, the same subsets, and the mosaics 968 -> 969.  At the 99th
# percentile four small cards in a wide grey frame (under 1 % of it) had their photo's
# wooden table taken for white and were lost; at the 99.9th a dim photo's salt noise was
# taken for white.  CPU x1.005 on 1280x720 frames, x1.006 on crowded webcam ones
# (paired; the white point from histograms of WHITE_SAMPLES pixels, 0.1 ms).  None:
# every picture read as it is.
WHITE_BALANCE: tuple[float, float, float, float] | None = (99.5, 235.0, 1.3, 140.0)
WHITE_GAIN = 4.0
WHITE_SAMPLES = 16_384  # the white point is measured on about this many pixels (every n-th of every n-th row's)


# What the reader does since the shipped networks were made, each left out (the reader's
# keywords): vision.photo.quantize and vision.photo.distill read their training photos
# with SceneReader.load(..., **AFTER_THE_NETWORKS), so that their recipes make the shipped
# files again.  A feature added after them is named here, once, and the threshold is the
# one they were read at (the witnesses, whose crops the single-card classifier reads,
# ask about the cards under it: another default would quantize it on other crops).
# (TURN_LARGE goes with turn_looks: without it no part is seen turned.)
class _LeftOut(TypedDict):
    deskew: None
    turn_looks: None
    white_balance: None
    dark_classifier: None
    face_classifier: None
    min_confidence: float


AFTER_THE_NETWORKS: _LeftOut = {
    "deskew": None,
    "turn_looks": None,
    "white_balance": None,
    "dark_classifier": None,
    "face_classifier": None,
    "min_confidence": 0.97,
}
# A card the confidence map gives at least WITNESS[0] but less than the threshold is
# shown to the single-card reader (issue 9's, which camera read used before issue
# 17): its detector sees the whole picture at 320 x 320, and the candidates it finds
# at the card's corners (WITNESS_NEAR) are read by its classifier with a turned
# look and scored by its own calibration, corners counted as that reader counts
# them.  The card is named when that gives the same card at least WITNESS[1]
# surely (the single-card reader's own threshold): two readers that look at the
# picture differently agree, each the surer for it.  Chosen on the photos that are
# not held out (the validation folds and the training parts, 744 photos, at 0.97;
# branch vis32, each photo's readings cached, the rule replayed): 0.3 and 0.93
# named 19 cards more right (897 -> 916: single cards 6, several 5, edje ranks 8,
# black and gold 0) and none wrong more (3); from 0.5, 18; from 0.0, 20; 0.9 as
# the single-card reader's bar named a wrong card more (a 3H for a 3S in a grey
# photo, 0.902), 0.97 only 13 more.  Naming every card the single-card reader
# names at 0.93, read by this reader or not, would add 7 right and 1 wrong.  A card
# whose best corner was read inverted (light glyphs on a dark face) is not asked
# about: the single-card reader reads its crops as they are, and it named none of
# those there; asking about them took the black and gold deck's frames (33 held-out
# photos scaled to 1280x720) from 159 to 171 ms (median, interleaved runs), and
# not asking named the same 19 cards (it asks in 1 of 105 such photos, not 39).
WITNESS = (0.3, PHOTO_MIN_CONFIDENCE)
# A candidate of the single-card reader is at a card's corner when its middle lies
# in the scene reader's box of that corner grown by this share of its side (each
# such candidate is read twice, about 8 ms).  On the photos not held out 0.25 named
# as many cards (19 more) as 0.5 and 1.0 with 118 candidates read instead of 134
# and 177; 0.0, 18.
WITNESS_NEAR = 0.25
# The face classifier (``FACE_CLASSIFIER_FILE``, ``python -m vision.photo.face_classifier``)
# reads a whole face-up card, its pips and its picture, as a witness for a card its
# index corners leave unsure: another network reading other pixels than the corners.
# A card the map puts at FACE_WITNESS[0] or more, under the threshold, its best corner
# read as it is, not every corner grey (as CLOSER_GREY: in a grey picture a suit is its
# shape's alone; the edje K turned grey was named KC), is named when a place to look closer (a face of either face pass) on
# which one of its corners lies (its middle in the face's box grown by FACE_HOLD of its
# longer side) is read by the face classifier as its rank at FACE_WITNESS[1] or more
# and as its suit at FACE_WITNESS[2] or more.  Chosen on the validation photos and
# their mosaics (NOTEBOOK.md, "The face classifier", stop 58).  None: no face witness;
# without the file, none either.
FACE_CLASSIFIER_FILE = "face_classifier.onnx"
FACE_WITNESS: tuple[float, float, float] | None = (0.05, 0.97, 0.9)
FACE_HOLD = 0.1
# The face classifier names a card alone (stop 59): a place to look closer (a face of either
# face pass) that holds no index read of a card named in the picture (FACE_HOLD), lies less
# than FACE_NAMES_INSIDE inside another place (the larger pass finds parts of one large card
# as faces: a part with one pip reads as the ace of spades) and overlaps no named card as
# placed (FACE_NAMES_ON, either way), read by the face classifier as a card not named in the
# picture, rank at FACE_NAMES[0] or more and suit at FACE_NAMES[1] or more, names that card
# at the threshold, with no index corner.  A grey face (GREY_SAT) is not asked: in a grey
# picture a suit is its shape's alone (as CLOSER_GREY; of the cards it named on the
# validation photos only a 6H of a grey photo was grey).  Chosen on the validation photos and
# their mosaics (NOTEBOOK.md, "The face classifier names a card alone", stop 59): the
# strictest bars of the grid, the only bars naming no wrong card there.  None: not named so.
FACE_NAMES: tuple[float, float] | None = (0.999, 0.999)
FACE_NAMES_INSIDE = 0.5
FACE_NAMES_ON = 0.3
# ... and only when it reads the face the same, at those bars, turned by each of these too (a
# card is the same card turned; it learnt every angle).  A network taught the same way
# without edje's photos named 9 of edje's cards alone, 3 of them wrong (decks it never saw:
# a 6C in a photo of a Q, a KS, a KH); read turned too, 3, none wrong.  With the turns the
# benchmark's mosaics name 21 cards more than with no card named alone, none wrong (27 more
# read as it is only).
FACE_NAMES_TURNS = (cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE)
# The largest picture (its short side, px) whose crops are warped straight from it, as
# the networks learnt them.  Every photo and frame measured is at most 720 px; a larger
# one (a phone's photo, a 4K frame) shows indices large enough that a straight warp
# aliases them (spec.crop_square, SHRINK_FIRST): the 157 validation photos scaled 2x,
# 3x and 4x named 204, 208 and 205 cards straight (the photos as they are: 210), 206,
# 208 and 208 averaged first; none wrong but one at 4x straight (NOTEBOOK.md, stop 50).
SMOOTH_ABOVE = 720
# A "back" holding an index corner read inverted (light on dark) as a card at least
# this surely is a face: a dark face, as on the black and gold deck, looks like a
# back to the back detector.
FACE_INDEX = 0.5
UNKNOWN_SCORE = 0.3  # only a confident detection of an index is worth an "unknown" line
# A whole face-up card is counted when the face detector is this sure of it and no
# card named in the picture is it (``unnamed_faces``).  Chosen on the validation fold
# of the multi-card photos labelled by whole card (edje, 60 photos, 121 cards; never
# trained on): the lowest threshold whose faces are at least 95 % cards (IoU 0.5):
# 0.6 found 102 faces, precision 0.971, recall 0.818; 0.5: 0.938 / 0.876; 0.7:
# 1.0 / 0.694.
FACE_THRESHOLD = 0.6
# A face only the closer looks' larger pass finds (CLOSER_FACES: small cards of a wide,
# crowded frame, too small for the counting pass at 256x192) is counted too when the face
# detector is at least this sure of it (stop 52).  Chosen on the validation photos of
# edje and their mosaics (1x1, 2x2, 3x3, sharp and as a webcam gives them): the lowest of
# 0.7, 0.8, 0.85 and 0.9 adding at most one unnamed face that is no card per 100 whole
# cards counted (about 560 there): 0.85 counted 37 more (2x2 webcam 58 -> 73 of 121,
# 3x3 webcam 15 -> 26 of 113), 1 such face more; 0.8: 67 more, 7 such faces; 0.9: 11, 1.
# The photos alone count what they counted (their cards are large: the counting pass
# finds them).  None: the larger pass's faces are only places to look closer.
FACE_COUNT_LARGER: float | None = 0.85
MAX_FACES = 52
FACE_SPAN = 0.25  # how much a card read on both corners overlaps its face's box at least (_could_be)
# A card read on one corner whose corner's middle lies outside a face's box by up to this
# share of the box's short side fits that face as if on its edge (a face box's edge is
# found to a few pixels); further out, it fits worse than any face that holds it.
# Stop 56: a queen of edje's 2x2 mosaic (IMG_2658-2684), named on one corner 0.04 outside
# its neighbour's face and 0.18 inside its own, took the neighbour's (any corner outside
# within the tenth _could_be grows a box by fitted as on its edge), and was counted twice.
# In the benchmark's frames (vision_real.py, every photo and mosaic) 11 cards read on one
# corner lie outside one of the faces they could be, 0.006-0.12 of a side; with 0.0 and
# with 0.03 the counts are the same (that queen counted once, sharp and webcam); 0.03
# keeps a face box a few pixels too small its card's (the unit test's, 0.015).
FACE_EDGE = 0.03
# A card read on two corners is outlined by its sure reads first (PLACE_SURE or more), the
# others only when those make no card: card_outline pairs the surest corner with the
# farthest read that fits, and in stop 56's edje 2x2 mosaic a JH read at 0.38, 4.5 sides
# off (another card's corner) made the outline while a read at 0.95 lay 3.1 sides off.
# Stop 57: in the benchmark's edje frames (held out, mosaics sharp and webcam) it moved
# two cards' outlines, each from across two cards onto its own (checked by eye); names
# the same to the card, whole cards counted 2x2 sharp 96 -> 98, 3x3 webcam 29 -> 30.
PLACE_SURE = 0.5
# A face and a back found overlapping this much (IoU) are one card, the surer of the
# two.  The back detector never learnt hands, and took a hand over a face for a back in
# 15 of 24 rendered photos with a hand on a card's corners (test_faces.covered); 0.3
# left 12 of those backs, 0.5 all 15; on rendered photos with backs (200, `--backs`)
# neither lost a back (precision 0.992, recall 0.810 either way).
FACE_BACK_IOU = 0.3
# A closer look: a whole face-up card the face detector finds (FACE_THRESHOLD), no
# larger than CLOSER_SIZE of the picture's short side (unless turned: TURN_LARGE), on
# which no index is read at least CLOSER surely, is cut out of the picture with
# CLOSER_GROW of its longer side round it, and its index corners are looked for again in
# that part alone, seen at CLOSER_SCALES of the part's own short side (the card about
# fills the detector's picture, as in a single-card photo).  A corner found there that
# one found before overlaps (NMS_IOU) replaces it when read more surely; any other is
# added.  Light glyphs on dark faces are not sought there, and its crops are read as
# they are.  A grey crop read there (GREY_SAT) is dropped (CLOSER_GREY): in a grey photo
# the suit is the shape's alone, and a second look at it is a second draw, not a witness
# (with the second face pass at 384, two grey photos not held out, a 3S and a JS, were
# named 3H and JC; on the validation folds no card changes; the edje K turned grey is
# lost).
# The places to look are the faces found at 192 x 192 (those counted) and those a
# second pass of the face detector finds in the picture at CLOSER_FACES x CLOSER_FACES,
# where the small cards of a wide frame are large enough for it; those are only
# places to look, not counted (the face threshold was chosen at 192).
# Measured on the validation folds (157 photos, out of fold, at 0.97, the map refitted
# each time): cards named right of edje's 109, of the black and gold deck's 43 and of
# the single cards' 88, and cards named (1 wrong each time); and in 1280x720 frames of
# the validation photos (vision_real.py --mosaic): edje's 109 cards named right in
# frames of one photo (1x1, indices about 24 px at scale 1) and of four (2x2, 10-12 px):
#                                          edje  bg  single  named   1x1  2x2
#   without a closer look                   87   22    78     194     72   14 (0 wrong)
#   shipped: faces at 512, scale 1.0       102   21    78     208     95   60 (0 wrong)
#     the same with parts from 16 px (CLOSER_LEAST): 102, 19, 207; 95, 61 (1 wrong)
#     faces at 640 / 768 with parts from 80 px: 206 / 207 named; 1x1 91 / 87, 2x2 66 / 60
#   faces at 384 / 640, scale 1.0          100   19 / 100 22; 206 / 207    90 / 91  58 / 68
#   faces at 320 / 448, scale 1.0          100   19 /  99 20; 206 / 205    2x2 52 / 65 (2 wrong)
#   faces at 192 only, scale 1.0            99   21          205           2x2 18
#   faces at 192 only, scales 1.0 and 1.4   98   21          204           2x2 17
#     the same with no size limit: edje 98, 19, 202 named; CLOSER_SIZE 0.5 / 0.6 / 0.8 / 0.9:
#     199 / 204 / 203 / 202 named
#   faces at 384, scales 1.0 and 1.4: edje 96, 18 (201); 0.8: 95, 19 (201); 1.2: 96, 18
#   (200); 0.7 and 1.0: 98, 20 (205); 2x2 with scales 1.0 and 1.4: 63
# Time (this machine on 29 November, paired reads, the median of the differences): 40
# held-out photos as 1280x720 frames, shipped, 26 ms more a frame (81 -> 105 ms median);
# 15 2x2 frames of edje photos 85 ms more (103 -> 187 ms): a crowded frame is looked at
# closer many times.  Faces at 384 cost 6 ms less a frame than at 512 (448: 3 ms less);
# at 192 only, scales 1.0 and 1.4 cost about what 384 does, scale 1.0 alone 12 ms less.
CLOSER: float | None = 0.97
CLOSER_GROW = 0.1
CLOSER_SIZE = 0.7
CLOSER_SCALES = (1.0,)
CLOSER_FACES = 512
# The face detector sees a wide frame squashed by at most this much (face_picture; a
# 16:9 frame at 688x512 in the larger pass, not 512x512, and at 256x192 in the
# counting pass, whose picture the back detector shares): it learnt cards as they are
# (and rendered ones stretched by up to 1.25) and has read 4:3 photos squashed to a
# square, not cards 1.78 times narrower than they are.  The counting pass so too (the
# second step, measured with the first, the map fitted again): mosaics 1x1 98 -> 102
# named, 111 -> 116 of 121 whole cards counted (unnamed faces that are no card 2 -> 5),
# 2x2 84 -> 86 and 85 -> 89 (3 -> 4); the photos of 4:3 or squarer see what they saw,
# and of the six 16:9 webcam photos of the validation fold one J is named no more (207
# named, 1 wrong).  Both steps cost 4.4 ms a 1x1 frame and 6.9 ms a 2x2 frame against
# both passes squashed to a square (paired, median of the differences: more faces
# found, more looks).  The first step, the larger pass alone, measured (validation folds, the map fitted for
# each, out of fold at 0.97; the mosaics of the validation photos, each photo its own
# deck, edje of 109): 512x512 from the smallest scaling (before): 208 named, 1 wrong;
# 1x1 95, 2x2 66.  688x512 from the largest scaling (shipped): 208, 1 wrong; 97-98 and
# 84, 0 wrong.  From the smallest scaling: 208; 97 and 76.  From the frame (INTER_AREA,
# 11 ms): 207; 96 and 80.  No squash at all (910x512): 202 (the 4:3 photos then look
# different too); 98 and 83.  Short side 448 / 640: 2x2 74 / 81.  A second face pass at
# 192 on each face found, to tighten its box before the look: 1x1 97, 2x2 63 from
# 512x512, nothing more from 688x512.  Time (paired, median of the differences): 3-4 ms
# more a frame, 1x1 and 2x2 alike.  Measured after both steps and not shipped (the
# NOTEBOOK.md, stop 43): a face's peak placed between heat-map cells (tighter boxes: 204
# named; 96 and 82), the part grown by 0.05 or 0.2 (202, 201), the look at 0.8 or 0.7 of
# its scale (201, 197), candidates suppressed by the smaller box's overlap (204).
FACE_SQUASH = 4 / 3
CLOSER_GREY = False  # whether a grey crop read by a closer look counts
# A part narrower or lower than this many pixels is not looked at: the detector would
# see it enlarged more than four times, with no more detail.  On the validation folds
# 80 named 208 cards (1 wrong) against 207 from 16 or 48, the mosaics' edje cards 95
# and 60 against 95 and 61, but none wrong in 2x2 against 1 (a spot inside a card that
# the face pass at 512 took for a small card).
CLOSER_LEAST = 80
# Dark faces (light glyphs on a dark card, as the black and gold deck's): the face
# detector learnt light cards and finds almost none of them (0 of the 18 whole cards in
# that deck's validation photos), but in the picture inverted such a card looks like
# the cards it learnt (6 of 18 found, 1 false face; in edje's validation photos 2 false
# faces).  So the face pictures are seen inverted too (DARK_FACES: the counting pass's at
# 192 and the larger pass's at 512, CLOSER_FACES), and each face found there only
# is a place for a closer look in the inverted part (the look's detector sees the part
# inverted; its crops are read both ways, as the whole picture's dark crops are).  The
# larger inverted pass (12.6 ms at 688x512 against 1.9 ms at 256x192) is made only on a
# sign of a dark face: a face found in the smaller one, or an index read inverted at
# FACE_INDEX or more.  A dark "face" lying DARK_IN_FACE or more inside a face found as
# it is, is a court card's picture and not looked at (in a validation photo a KH's
# picture, inverted, was a face, and a pattern in it read TH at 0.99).  Measured (stop
# 48; the maps fitted again; validation folds out of fold at 0.97; mosaics of the
# validation photos, each photo its own deck; named right, wrong in brackets):
#     none (before): 207 named, 1 wrong; black and gold 1x1/2x2/3x3 21/14/8 (1/1/1), as
#         a webcam gives them 20/14/7 (2/1/3); edje 101/87/54, webcam 93/55/16 (0);
#         dev 83/78/69, webcam 82/76/60 (0)
#     192 and 512, the larger gated (shipped): 213, 1 wrong; black and gold 25/17/12
#         (1/1/1), webcam 24/14/8 (2/1/3); edje 101/87/54, webcam 94/58/16 (0); dev
#         83/78/70, webcam 82/77/61 (0); time (paired, median of the differences, one
#         thread, two runs): 40 held-out photos as 1280x720 frames +2.4 and +3.1 ms
#         (x1.046, x1.036), 15 edje 2x2 webcam frames +3.6 and +4.1 ms (x1.016, x1.017);
#         a dark deck's frames much more, each dark face looked at: the black and gold
#         validation photos as 1x1 frames +50.8 ms (x1.65), four to a 2x2 frame +93.5 ms
#         (x2.1); its looks' crops read one way only saved 0.6 and 2.2 ms (not taken)
#     the new map without these looks: black and gold 24/15/8 and 21/14/7, edje webcam
#         94/58/16, dev 83/78/70 and 82/77/61: of the deck's +16 the looks give 11 and
#         the map fitted again 5, and edje's +4 and dev's +3 are the map's alone
#     192 and 512, ungated: 213 and the same mosaics (edje webcam 94/58/16), but +21.5 ms
#         (x1.16) a 1280x720 frame and +30.8 ms (x1.16) a 2x2 frame: every light frame
#         looked at inverted too
#     192 and 384, ungated: 213; +16.2 ms (x1.12), +29.9 ms (x1.12)
#     192 alone: 209; black and gold 23/15/8 and 22/14/7; edje webcam 93/56/16; +3.6
#         ms (x1.036), +2.1 ms (x1.034)
DARK_FACES = True
DARK_IN_FACE = 0.8
# A crop read as it is (not inverted) as no card, or unsurely (below CASCADE), whose
# middle (its inner half) has a median brightness (0..1) below this is read by the dark
# classifier (DARK_CLASSIFIER_FILE) too, which names its card alone at DARK_SURE or more
# (``_dark_named``; None: never).  The black and gold deck's corners lie at its cards'
# edges, where white table takes a whole crop's median up (DARK_CROP), so they are read
# as they are: "no index", surely.  Measured before it was made (stop 62), on 4,208 such
# crops of the photos that are not held out (`edje`, the black and gold deck, a third of
# the single-card photos): 36 cards named at 0.97, none wrong, 18 of them not named
# otherwise (3 in the black and gold deck's validation photos); with a dark middle (0.5)
# all 18 are kept and half of `edje`'s crops are not asked (744 of 1,286 with a fifth of
# the crop dark).  Those asked name no wrong card at 0.9 either.
DARK_NAMES: float | None = 0.5


# One crop as ``SceneReader._cut`` makes it: the crop, whether it is grey, whether it is
# read inverted first, whether it may be read the other way too, and where it was cut
# (the picture, the crop's middle x and y, its side, whether smoothed: ``DESKEW`` cuts
# it again turned).
Cut = tuple[np.ndarray, bool, bool, bool, tuple[np.ndarray, float, float, float, bool]]
# A whole card a face or back detector found: its box (x0, y0, x1, y1) and its score
Found = tuple[tuple[float, float, float, float], float]


@dataclass(frozen=True, slots=True)
class SceneRead(IndexRead):
    """An index read, whether its crop was read with its lightness inverted,
    whether its reading is the scene classifier's (the first was unsure: ``CASCADE``)
    and whether the crop is grey (``GREY_SAT``)."""

    inverted: bool = False
    second: bool = False
    grey: bool = False  # the crop has no colour to tell red suits from black (GREY_SAT)


@dataclass(frozen=True, slots=True)
class Candidate:
    box: tuple[float, float, float, float]
    score: float


class SceneReader:
    def __init__(
        self,
        photo: Recogniser,
        calibration: dict | None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        scales: tuple[float, ...] = SCALES,
        invert: bool = True,
        min_det: float = MIN_DET,
        second_look: tuple[float, float] = SECOND_LOOK,
        deskew: tuple[float, float] | None = DESKEW,
        turn_looks: tuple[float, float] | None = TURN_LOOKS,
        white_balance: tuple[float, float, float, float] | None = WHITE_BALANCE,
        invert_scales: tuple[float, ...] = INVERT_SCALES,
        crop_scale: float = 1.0,
        scene_classifier=None,
        dark_classifier=None,
        cascade: float = CASCADE,
        polarity: str = POLARITY,
        both_ways: float = BOTH_WAYS,
        light_both_ways: float = LIGHT_BOTH_WAYS,
        witness: tuple[float, float] | None = WITNESS,
        face_detector=None,
        face_threshold: float = FACE_THRESHOLD,
        count_larger: float | None = FACE_COUNT_LARGER,
        report_faces: bool = True,
        closer: float | None = CLOSER,
        dark_faces: bool = True,
        classifier=None,
        detector=None,
        closer_detector=None,
        face_classifier=None,
        face_witness: tuple[float, float, float] | None = FACE_WITNESS,
        face_names: tuple[float, float] | None = FACE_NAMES,
    ):
        self.photo = photo
        # the index detector and classifier (INT8), or the single-card reader's own
        self.detector_net = detector if detector is not None else photo.detector_net
        # the closer looks' index detector (CLOSER_DETECTOR_FILE), or the other
        self.closer_net = closer_detector if closer_detector is not None else self.detector_net
        self.classifier_net = classifier if classifier is not None else photo.classifier_net
        self.face_net = face_detector  # whole face-up cards (FACE_DETECTOR_FILE), or None
        self.face_threshold = face_threshold
        self.count_larger = count_larger  # the larger pass's faces counted from this sure (FACE_COUNT_LARGER)
        # whether read() reports the faces no index names (and lets a surer face overrule
        # a back); without, the face detector only shows where to look closer (CLOSER)
        self.report_faces = report_faces
        self.scene_net = scene_classifier  # asked when the single-card reader's classifier is unsure
        self.dark_net = dark_classifier  # the witness of unsure cards read inverted (DARK_CLASSIFIER_FILE)
        self.face_cls_net = face_classifier  # a whole card read from its face (FACE_CLASSIFIER_FILE)
        self.face_witness = face_witness  # (the map's least, rank, suit) for the face witness (FACE_WITNESS)
        self.face_names = face_names  # (rank, suit) the face classifier names a card alone at (FACE_NAMES)
        self.cascade = cascade
        self.calibration = calibration
        self.min_confidence = min_confidence
        self.scales = scales
        self.invert = invert  # also look for light glyphs on dark faces
        self.invert_scales = invert_scales
        self.min_det = min_det
        self.second_look = second_look
        self.deskew = deskew  # an unsure crop of a turned index read again upright (DESKEW)
        self.turn_looks = turn_looks  # a closer look's turned part seen upright (TURN_LOOKS)
        self.white_balance = white_balance  # a picture whose white is off read balanced (WHITE_BALANCE)
        if polarity not in POLARITIES:
            raise ValueError(f"polarity must be one of {', '.join(POLARITIES)}, not {polarity!r}")
        self.polarity = polarity  # how a dark crop is judged light glyphs on a dark face (POLARITY)
        self.both_ways = both_ways  # the detection score a dark crop needs to be read both ways (BOTH_WAYS)
        self.light_both_ways = light_both_ways  # the same for a crop read inverted first (LIGHT_BOTH_WAYS)
        self.crop_scale = crop_scale  # crop side / the detected box's (measured: 0.85 and 1.2 read fewer cards)
        self.witness = witness  # (the map's least, the single-card reader's least) for a second witness (WITNESS)
        self.closer = closer  # a closer look at the faces whose indices are read less surely (CLOSER), or None
        # and at dark faces (DARK_FACES); vision.photo.distill's teaching reader makes
        # none, so that its commands make again the networks they made before them
        self.dark_faces = dark_faces
        # when a list, every crop cut is noted in it: (the part of the picture it was cut from
        # as left, top, right, bottom; its box in that part; whether it is read inverted
        # first).  vision.photo.distill cuts the same crops from a webcam's look of the picture
        # (with turn_looks None: a look's part turned upright has its boxes in the turned part).
        self.cut_log: list | None = None
        # ... and, when a list, every time the index detector is asked: (the part of the
        # picture as left, top, right, bottom; the short side its scales are of; whether
        # the inverted picture is seen; the scales, None for SCALES; whether it sees the
        # picture inverted alone, a dark face's look), from which ``detector_pictures``
        # makes the pictures again (vision.photo.distill).
        self.det_log: list | None = None

    @classmethod
    def load(
        cls,
        models: Path | None = None,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        calibrated: bool = True,
        backs: bool = True,
        faces: bool = True,
        int8: bool = True,
        **kw,
    ) -> SceneReader:
        """The shipped networks (or those in ``models``).  ``backs=False`` leaves out
        face-down cards, ``faces=False`` whole face-up cards no index names,
        ``int8=False`` reads with the float networks even where int8 copies are
        (``INT8``; the first classifier is then the float ensemble, not one member
        of it: ``FIRST_CLASSIFIER_FILE``)."""
        models = models or MODELS
        photo = Recogniser.load(models, calibrated=calibrated, backs=backs)  # its calibration: the witness
        cal_file = models / SCENE_CALIBRATION_FILE
        cal = json.loads(cal_file.read_text()) if calibrated and cal_file.is_file() else None

        def load_net(name: str, as_kw: str, int8_only: bool = False, part: str | None = None) -> None:
            path = models / name
            if int8 and part is not None and (models / part).is_file():
                path = models / part  # one member of the int8 ensemble (FIRST_CLASSIFIER_FILE)
            elif int8 and name in INT8 and (models / INT8[name]).is_file():
                path = models / INT8[name]
            elif int8_only:
                return  # the single-card reader's own network, loaded already
            if as_kw in kw or not path.is_file():
                return
            try:
                kw[as_kw] = nets.load(path)
            except VisionError as exc:
                raise ModelMissing(f"model file {path} is damaged ({exc}); retrain it") from None

        load_net(DETECTOR_FILE, "detector", int8_only=True)
        load_net(CLOSER_DETECTOR_FILE, "closer_detector")
        load_net(CLASSIFIER_FILE, "classifier", int8_only=True, part=FIRST_CLASSIFIER_FILE)
        load_net(SCENE_CLASSIFIER_FILE, "scene_classifier")
        load_net(DARK_CLASSIFIER_FILE, "dark_classifier")
        load_net(FACE_CLASSIFIER_FILE, "face_classifier")
        if faces:
            load_net(FACE_DETECTOR_FILE, "face_detector")
        return cls(photo, cal, min_confidence, **kw)

    # -- stage one: candidates ------------------------------------------------------
    def detect(self, image: np.ndarray, short: int | None = None) -> list[Candidate]:
        """Candidate index corners.  ``short``: the short side of the picture ``image`` is
        cut from (the table camera's frame), which sets the scales: a part of a frame is
        seen as it is in the whole frame."""
        return self._candidates(image, short, self.invert)[0]

    def _candidates(
        self,
        image: np.ndarray,
        short: int | None,
        invert: bool,
        scales: tuple[float, ...] | None = None,
        part: tuple[int, int, int, int] | None = None,
        net=None,
        negate: bool = False,
    ) -> tuple[list[Candidate], np.ndarray | None, np.ndarray]:
        """``detect``'s candidates (``invert``: in the inverted picture too), the
        smallest scaling of the picture when it is smaller than the picture (the
        whole-card detectors' picture is scaled from it: ``_indices``) and the largest
        scaling (the larger face pass's picture is scaled from it: ``CLOSER_FACES``).
        ``scales``: others than the reader's (``SCALES``).  ``part``: where ``image``
        lies in the whole picture (left, top, right, bottom), for ``det_log``.
        ``net``: another index detector than the reader's (the closer looks').
        ``negate``: the detector sees the picture inverted alone (a dark face's look)."""
        h, w = image.shape[:2]
        if self.det_log is not None:
            self.det_log.append((part or (0, 0, w, h), short, invert, scales, negate))
        passes, smalls = self.detector_pictures(image, short, invert, scales, negate)
        found: list[Candidate] = []
        for small in passes:
            found += [
                Candidate(box, score) for box, score in _peaks(net or self.detector_net, small, DET_THRESHOLD, (w, h))
            ]
        found.sort(key=lambda c: -c.score)
        found = [c for c in found if c.score >= self.min_det]
        overlaps = _ious([c.box for c in found], [c.box for c in found]) >= NMS_IOU
        kept: list[int] = []
        for i in range(len(found)):
            if not overlaps[i, kept].any():
                kept.append(i)
        low = smalls[min(smalls)]
        return [found[i] for i in kept], (low if low.shape[1] < w else None), smalls[max(smalls)]

    def detector_pictures(
        self,
        image: np.ndarray,
        short: int | None,
        invert: bool,
        scales: tuple[float, ...] | None = None,
        negate: bool = False,
    ) -> tuple[list[np.ndarray], dict[float, np.ndarray]]:
        """The pictures the index detector sees of ``image`` (``_candidates``' arguments):
        it at each of ``scales`` and, with ``invert``, inverted at each inverted scale
        (``negate``: each of them inverted instead); and the scaled pictures by scale."""
        scales = self.scales if scales is None else scales
        h, w = image.shape[:2]
        base = spec.DET_SIZE / (short or min(w, h))  # scale 1: the short side at the detector's 320 px
        # the picture at each scale, scaled once; a smaller one from the next larger
        # (INTER_AREA from 1280x720 to 569x320 takes 8 ms of CPU, from 796x448 3 ms; on
        # the validation folds the same cards named, right and wrong)
        smalls: dict[float, np.ndarray] = {}
        source = image
        for s in sorted(set(scales + (self.invert_scales if invert else ())), reverse=True):
            f = base * s
            sw, sh = max(32, int(round(w * f / 8)) * 8), max(32, int(round(h * f / 8)) * 8)
            if sw < w:
                smalls[s] = source = cv2.resize(source, (sw, sh), interpolation=cv2.INTER_AREA)
            else:
                smalls[s] = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_LINEAR)
        # the inverted picture (light glyphs on dark faces) is the scaled one inverted
        passes = [smalls[s] for s in scales] + ([255 - smalls[s] for s in self.invert_scales] if invert else [])
        return ([255 - p for p in passes] if negate else passes), smalls

    # -- stage two: reading each candidate ------------------------------------------
    def classify(
        self, image: np.ndarray, boxes, scores: Sequence[float] | None = None
    ) -> list[tuple[str, float, bool, bool]]:
        """The best reading and its probability for each box, whether its crop was
        read inverted and whether the reading is the scene classifier's (the
        single-card classifier was unsure of it).  A reading that is
        neither sure nor hopeless (``SECOND_LOOK``) gets a second look at the crop
        turned upside down (the classifier learnt every quarter turn) and the two
        are averaged: most of what reading every crop twice gains, at a fraction
        of its cost.  ``scores``, the boxes' detection scores, decide which dark
        crops are read both ways (``BOTH_WAYS``); without them every one may be."""
        return [r[:4] for r in self._read_boxes(image, boxes, scores, smooth=_smooth(image))]

    def _read_boxes(
        self,
        image: np.ndarray,
        boxes,
        scores: Sequence[float] | None = None,
        invert: bool | None = None,
        smooth: bool = False,
    ) -> list[tuple[str, float, bool, bool, bool]]:
        """``classify``'s readings, and whether each crop is grey (``GREY_SAT``).
        With ``polarity="both"`` a dark crop is read first the way its ink suggests
        (inverted when its glyphs are lighter than its paper, ``light_glyphs``) and,
        unless that names a card at least ``CASCADE`` surely, the other way too; the
        reading that names an index more surely is kept (``_better``).  ``invert=False``:
        every crop is read as it is (the reader's ``invert`` unless given).  ``smooth``:
        crops averaged first where they shrink much (``_smooth``)."""
        return self._read_cut(self._cut(image, boxes, scores, invert, smooth=smooth))

    def _cut(
        self,
        image: np.ndarray,
        boxes,
        scores: Sequence[float] | None = None,
        invert: bool | None = None,
        part: tuple[int, int, int, int] | None = None,
        smooth: bool = False,
    ) -> list[Cut]:
        """``_read_boxes``' crops, each with whether it is grey, whether it is read
        inverted first, whether it may be read the other way too and where it was cut
        (``Cut``).  ``part``: where ``image`` lies in the whole picture (left, top,
        right, bottom), for ``cut_log``; ``smooth``: see ``_smooth``."""
        out = []
        for (x0, y0, x1, y1), score in zip(boxes, scores or [1.0] * len(boxes)):
            side = spec.box_side(x0, y0, x1, y1) * self.crop_scale
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            crop = spec.crop_square(image, cx, cy, side, smooth=smooth)
            first, both = self._polarity_of(crop, self.invert if invert is None else invert)
            both = both and score >= (self.light_both_ways if first else self.both_ways)
            out.append((crop, is_grey(crop), first, both, (image, cx, cy, side, smooth)))
            if self.cut_log is not None:
                self.cut_log.append((part or (0, 0, image.shape[1], image.shape[0]), (x0, y0, x1, y1), first))
        return out

    def _read_cut(self, cut: Sequence[Cut]) -> list[tuple[str, float, bool, bool, bool]]:
        """``_read_boxes``' readings of crops ``_cut`` made (of one picture or of
        several: the closer looks' crops are read together, the networks' batches
        larger)."""
        if not cut:
            return []
        crops, grey, flipped, other, _ = (list(v) for v in zip(*cut))
        # the classifier learnt dark glyphs on light
        best = self._read_crops([dark_to_light(c) if f else c for c, f in zip(crops, flipped)], flipped)
        again = [
            i
            for i, (code, p, *_) in enumerate(best)
            if other[i] and (code in (spec.NONE, spec.JOKER) or p < self.cascade)
        ]
        if again:
            turned = [not flipped[i] for i in again]
            reads = self._read_crops(
                [dark_to_light(crops[i]) if f else crops[i] for i, f in zip(again, turned)], turned
            )
            for i, reading in zip(again, reads):
                if _better(reading, best[i]):
                    best[i] = reading
        if self.deskew is not None:
            self._read_upright(cut, best)
        return [(*b, g) for b, g in zip(best, grey)]

    def _read_upright(self, cut: Sequence[Cut], best: list[tuple[str, float, bool, bool]]) -> None:
        """``DESKEW``: each of ``best`` (the readings of ``cut``'s crops) that is unsure
        and whose index lies turned is read again from its crop cut turned upright, in
        the polarity of its reading; the reading that names an index more surely stays
        in ``best``.  Only the unsure crops' turn is measured (most crops are sure)."""
        assert self.deskew is not None
        least, coherent = self.deskew
        todo: list[int] = []
        upright: list[np.ndarray] = []
        for i, (code, p, *_) in enumerate(best):
            if p >= (self.cascade if code not in (spec.NONE, spec.JOKER) else NONE_SURE):
                continue
            angle, sure = skew(cut[i][0])
            if abs(angle) < least or sure < coherent:
                continue
            image, cx, cy, side, smooth = cut[i][4]
            # measured again on the crop turned by the first measure, which falls short
            # (the glyphs' own strokes lie every way)
            angle += skew(spec.crop_square(image, cx, cy, side, angle=angle, smooth=smooth))[0]
            todo.append(i)
            upright.append(spec.crop_square(image, cx, cy, side, angle=angle, smooth=smooth))
        if not todo:
            return
        flips = [best[i][2] for i in todo]
        reads = self._read_crops([dark_to_light(c) if f else c for c, f in zip(upright, flips)], flips)
        for i, reading in zip(todo, reads):
            if _better(reading, best[i]):
                best[i] = reading

    def _read_crops(self, crops: list[np.ndarray], flipped: list[bool]) -> list[tuple[str, float, bool, bool]]:
        """(code, probability, read inverted, the scene classifier's) for crops as
        they are to be read: the single-card classifier, the scene classifier where
        it is unsure (``CASCADE``), and the upside-down look (``SECOND_LOOK``)."""
        rank_p, suit_p = self._probs(self.classifier_net, crops)
        second = [False] * len(crops)
        if self.scene_net is not None:
            unsure = [i for i, (r, s) in enumerate(zip(rank_p, suit_p)) if _unsure(r, s, self.cascade)]
            if unsure:
                rank_p[unsure], suit_p[unsure] = self._probs(self.scene_net, [crops[i] for i in unsure])
                for i in unsure:
                    second[i] = True
        lo, hi = self.second_look
        again = [i for i, (r, s) in enumerate(zip(rank_p, suit_p)) if lo <= _best(r, s) < hi]
        if again:
            r2, s2 = self._probs(self.classifier_net, [cv2.rotate(crops[i], cv2.ROTATE_180) for i in again])
            rank_p[again] = (rank_p[again] + r2) / 2
            suit_p[again] = (suit_p[again] + s2) / 2
        return [(*spec.decode(r, s), f, sec) for r, s, f, sec in zip(rank_p, suit_p, flipped, second)]

    def _polarity_of(self, crop: np.ndarray, invert: bool = True) -> tuple[bool, bool]:
        """Whether a crop is read inverted first, and whether it may be read the
        other way too (``POLARITY``); neither without ``invert``."""
        if not invert:
            return False, False
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        lo, mid, hi = spec.percentiles(gray, (2, 50, 98))
        if mid >= 255 * DARK_CROP:
            return False, False
        if self.polarity == "median":
            return True, False
        return _lighter_ink(lo, mid, hi), self.polarity == "both"

    def _light_on_dark(self, crop: np.ndarray) -> bool:
        """Whether a crop is read with its lightness inverted first (``POLARITY``)."""
        return self._polarity_of(crop, self.invert)[0]

    @staticmethod
    def _probs(net, crops: list[np.ndarray], blob=spec.cls_blob) -> tuple[np.ndarray, np.ndarray]:
        """``net``'s rank and suit probabilities of each of ``crops``, fed as ``blob``
        makes them (the index classifiers': ``spec.cls_blob``)."""
        logits = net.run(blob(crops)).reshape(len(crops), spec.N_OUT)
        nr = len(spec.RANK_OUT)
        return softmax(logits[:, :nr]), softmax(logits[:, nr:])

    def read_indices(self, image: np.ndarray, short: int | None = None) -> list[SceneRead]:
        """Every index corner found and its reading, the closer looks' included (``CLOSER``)."""
        return self._indices(self.balanced(image), short)[0]

    def balanced(self, image: np.ndarray) -> np.ndarray:
        """``image`` as it is read: white-balanced when its white is off (``WHITE_BALANCE``),
        else itself."""
        if self.white_balance is None or image is None or image.ndim != 3 or image.shape[2] != 3:
            return image  # not a colour picture: _read_cards says so
        return white_balanced(image, *self.white_balance)

    def _indices(
        self, image: np.ndarray, short: int | None = None, backs: bool = False
    ) -> tuple[
        list[SceneRead],
        list[Found],
        list[Found],
        np.ndarray | None,
    ]:
        """``read_indices``' reads, the whole faces found (``detect_faces``, and the
        larger pass's surest: ``FACE_COUNT_LARGER``), the places to look closer (the
        faces of both passes: the face witness's, ``FACE_WITNESS``) and the picture as the face and the
        back detector see it (``face_picture``; None when neither is asked: without a
        face detector, and without ``backs`` or a back detector).  That picture is
        scaled from the index detector's smallest scaling of the picture (568x320 for a
        1280x720 frame): 2.7 ms less a frame than from the frame itself, the same cards,
        backs and faces in the benchmark (vision_real.py)."""
        found, scaled, large = self._candidates(image, short, self.invert)
        smooth = _smooth(image, short)
        reads = self._read_boxes(image, [c.box for c in found], [c.score for c in found], smooth=smooth)
        out = [SceneRead(c.box, c.score, *reading) for c, reading in zip(found, reads)]
        source = image if scaled is None else scaled
        asked = self.face_net is not None or (backs and self.photo.finds_backs)
        counting = face_picture(source, spec.BACK_GRID.size, FACE_SQUASH) if asked else None
        blob = None if counting is None else spec.net_input(counting)
        whole = self.detect_faces(image, blob)
        places = list(whole)
        if self.face_net is None or self.closer is None:
            return out, whole, places, blob  # no place to look closer
        counted = list(whole)  # and the larger pass's surest (FACE_COUNT_LARGER)
        larger = face_picture(large, CLOSER_FACES, FACE_SQUASH) if CLOSER_FACES else None
        if larger is not None:
            more = _grid_peaks(
                self.face_net, image, spec.BACK_GRID, self.face_threshold, MAX_FACES, spec.net_input(larger)
            )
            for box, score in more:
                if all(iou(box, b) < NMS_IOU for b, _ in places):  # a face both passes found is one
                    places.append((box, score))
                    if self.count_larger is not None and score >= self.count_larger:
                        counted.append((box, score))
        # dark faces are light glyphs on dark faces: sought only by a reader that seeks those (invert)
        seek = DARK_FACES and self.dark_faces and self.invert
        dark = self._dark_faces(image, [counting, larger], out, places) if seek else []
        return self._look_closer(image, out, places, dark, smooth), counted, places, blob

    def _dark_faces(
        self,
        image: np.ndarray,
        pictures: Sequence[np.ndarray | None],
        reads: Sequence[SceneRead],
        faces: Sequence[Found],
    ) -> list[Found]:
        """Whole cards the face detector finds in its ``pictures`` (the counting
        pass's, the larger pass's; None: not made) inverted that none of ``faces``
        (found as they are) is or holds: dark faces, places for an inverted closer
        look (``DARK_FACES``).  The larger picture only on a sign of a dark face (one
        found in the smaller, or one of ``reads`` read inverted surely)."""
        dark: list[Found] = []
        for k, picture in enumerate(pictures):
            if picture is None:
                continue
            if (
                k
                and not dark
                and not any(
                    r.inverted and r.code not in (spec.NONE, spec.JOKER) and r.prob >= FACE_INDEX for r in reads
                )
            ):
                break
            blob = spec.net_input(255 - picture)
            for box, score in _grid_peaks(self.face_net, image, spec.BACK_GRID, self.face_threshold, MAX_FACES, blob):
                if all(iou(box, b) < NMS_IOU for b, _ in [*faces, *dark]) and not any(
                    _share(box, b) >= DARK_IN_FACE for b, _ in faces
                ):
                    dark.append((box, score))
        return dark

    def _look_closer(
        self,
        image: np.ndarray,
        reads: list[SceneRead],
        faces: Sequence[Found],
        dark: Sequence[Found] = (),
        smooth: bool = False,
    ) -> list[SceneRead]:
        """``reads`` with those of a closer look at each of ``faces`` (the places to
        look) and of ``dark`` (dark faces, looked at inverted: ``DARK_FACES``) on which
        no index is read at least ``closer`` surely (``CLOSER``); ``smooth``: the whole
        picture's (``_smooth``)."""
        if self.closer is None or not (faces or dark):
            return reads
        h, w = image.shape[:2]
        sure = [r.box for r in reads if r.prob >= self.closer and r.code not in (spec.NONE, spec.JOKER)]
        # each look's candidates, the top-left corner of its part and, when the part was
        # seen turned upright, the map from what was seen to the part as it is
        seen: list[tuple[Candidate, int, int, np.ndarray | None]] = []
        cut: list[Cut] = []
        for face, inverted in [(f, False) for f, _ in faces] + [(f, True) for f, _ in dark]:
            x0, y0, x1, y1 = face
            large = max(x1 - x0, y1 - y0) > CLOSER_SIZE * min(w, h)
            if (large and (inverted or not TURN_LARGE)) or any(_inside(b, face) for b in sure):
                continue
            grow = CLOSER_GROW * max(x1 - x0, y1 - y0)
            left, top = int(max(0.0, x0 - grow)), int(max(0.0, y0 - grow))
            right, bottom = int(min(w, x1 + grow)), int(min(h, y1 + grow))
            if right - left < CLOSER_LEAST or bottom - top < CLOSER_LEAST:
                continue
            where = (left, top, right, bottom)
            part = image[top:bottom, left:right]
            # a dark face's look is not turned: on the black and gold deck's photos that are
            # not held out that named 2 cards fewer (its photos are stretched to a square by
            # their source, so its cards' sides do not meet square: a guess, not measured)
            part, back = (part, None) if inverted else self._upright(part)
            if large and back is None:
                continue  # a large face is looked at only turned (TURN_LARGE)
            found, _, _ = self._candidates(part, None, False, CLOSER_SCALES, where, self.closer_net, inverted)
            seen += [(c, left, top, back) for c in found]
            # a dark face's crops are read as the whole picture's (both ways when dark)
            cut += self._cut(
                part, [c.box for c in found], [c.score for c in found], None if inverted else False, where, smooth
            )
        more: list[SceneRead] = []
        for (c, left, top, back), reading in zip(seen, self._read_cut(cut)):
            if reading[0] not in (spec.NONE, spec.JOKER) and (CLOSER_GREY or not reading[-1]):
                x_0, y_0, x_1, y_1 = c.box
                if back is None:
                    box = (x_0 + left, y_0 + top, x_1 + left, y_1 + top)
                else:  # seen turned upright: the box round its corners turned back
                    xs, ys = back @ np.array([[x_0, x_1, x_1, x_0], [y_0, y_0, y_1, y_1], [1.0, 1.0, 1.0, 1.0]])
                    box = (xs.min() + left, ys.min() + top, xs.max() + left, ys.max() + top)
                more.append(SceneRead(box, c.score, *reading))
        out = list(reads)
        for r in sorted(more, key=lambda r: -r.prob):  # a corner found twice is read once, as surely as it was
            same = np.flatnonzero(_ious([k.box for k in out], [r.box])[:, 0] >= NMS_IOU)
            if not len(same):
                out.append(r)
            elif r.prob > out[same[0]].prob:
                out[same[0]] = r
        return out

    def _upright(self, part: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """A closer look's ``part`` as its detector is to see it: turned upright when its
        edges lie turned (``TURN_LOOKS``; the part is a card's face, whose borders set the
        direction), the same size, its edges replicated into the corners the turn leaves
        empty; and the 2 x 3 map from the part so seen to the part as it is (None: not
        turned)."""
        if self.turn_looks is None:
            return part, None
        least, coherent = self.turn_looks
        ph, pw = part.shape[:2]
        f = TURN_LOOK_SIZE / max(ph, pw)
        small = part  # measured on the part shrunk: its sides are what counts, not its print
        if f < 1:
            small = cv2.resize(part, (max(8, round(pw * f)), max(8, round(ph * f))), interpolation=cv2.INTER_AREA)
        angle, sure = skew(small)
        if abs(angle) < least or sure < coherent:
            return part, None
        m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
        turned = cv2.warpAffine(part, m, (pw, ph), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return turned, cv2.invertAffineTransform(m).astype(np.float64)

    # -- cards ----------------------------------------------------------------------
    def confidence(self, reads: Sequence[IndexRead]) -> float:
        """The calibrated chance that a card read alike on ``reads`` is right: the
        map of the path its best corner was read by (``calibration_weights``)."""
        if not self.calibration:
            return max(r.prob for r in reads)
        w = calibration_weights(self.calibration, second_path(max(reads, key=lambda r: r.prob), self.cascade))
        return float(1 / (1 + np.exp(-np.dot(card_features(reads), w))))

    def cards(
        self, reads: Sequence[IndexRead], min_confidence: float | None = None, confirmed: Collection[str] = ()
    ) -> tuple[list[CardReading], list[CardReading]]:
        """Cards from index reads, one per code (a deck has each card once): those
        named with at least ``min_confidence``, and the unsure ones as "unknown".
        A card in ``confirmed`` (a second witness named it: ``witnessed``) is named
        too, at the threshold's confidence: as sure as a named card is asked to be."""
        t = self.min_confidence if min_confidence is None else min_confidence
        named, unknown, named_at = [], [], []
        for code, rs in _by_code(reads).items():
            conf = self.confidence(rs)
            if conf >= t or code in confirmed:
                conf = max(conf, t)
                named.append(CardReading(code, round(conf, 4), outline([r.box for r in rs]), corners_seen(rs)))
                named_at += [r.box for r in rs]
            elif max(r.score for r in rs) >= UNKNOWN_SCORE:
                best = max(rs, key=lambda r: r.score)
                unknown.append(CardReading(UNKNOWN, min(round(conf, 4), t), outline([best.box]), 1, UNSURE))
        # a corner a card was named from, read as another card too (at another scale,
        # in a closer look), is that card's: no "unknown" line of its own
        unknown = [u for u in unknown if not any(_inside(box, u.box) for box in named_at)]
        return sorted(named, key=lambda c: -c.confidence), sorted(unknown, key=lambda c: -c.confidence)

    def witnessed(
        self,
        image: np.ndarray,
        reads: Sequence[IndexRead],
        places: Sequence[Found] = (),
        faces_read: dict | None = None,
    ) -> set[str]:
        """The cards the map leaves unsure that a second witness names: those at least
        ``WITNESS[0]``, below the threshold, that the single-card reader (or for a card
        read inverted, the dark classifier) names too (``_photo_witnessed``), and those
        at least ``FACE_WITNESS[0]`` whose face the face classifier reads as the card
        (``_face_witnessed``; ``places``: the faces found, where it looks; ``faces_read``:
        ``_face_read``'s memo).  None when the threshold is above the default (each rule
        was measured at the default)."""
        if self.min_confidence > DEFAULT_MIN_CONFIDENCE:
            return set()
        confirmed = self._photo_witnessed(image, reads)
        return confirmed | self._face_witnessed(image, reads, places, confirmed, faces_read)

    def _photo_witnessed(self, image: np.ndarray, reads: Sequence[IndexRead]) -> set[str]:
        """The cards the map leaves unsure (at least ``WITNESS[0]``, below the
        threshold) that the single-card reader names too, at least ``WITNESS[1]``
        surely: its detector sees the whole picture, its candidates at the card's
        corners (``WITNESS_NEAR``) are read by its classifier with a turned look, and
        those read as the card are scored as that reader scores a card (its
        calibration of ``card_score``).  A card whose best corner was read inverted
        (light glyphs on a dark face) is not asked about: the single-card reader
        reads crops as they are; the dark classifier is its witness instead
        (``_dark_witnessed``).  None without a witness."""
        if self.witness is None:
            return set()
        least, sure = self.witness
        doubted = {
            code: rs for code, rs in _by_code(reads).items() if least <= self.confidence(rs) < self.min_confidence
        }
        dark = {code: rs for code, rs in doubted.items() if _best_inverted(rs)}
        unsure = {code: rs for code, rs in doubted.items() if code not in dark}
        confirmed = self._dark_witnessed(image, dark)
        if not unsure:
            return confirmed
        found = [box for box, _ in self.photo.detect(image)]
        near = [b for b in found if any(_near(b, r.box) for rs in unsure.values() for r in rs)]
        if not near:
            return confirmed
        seen = list(zip(near, self.photo.classify(image, near)))
        for code, rs in unsure.items():
            probs = [p for box, (c, p) in seen if c == code and any(_near(box, r.box) for r in rs)]
            if probs and self.photo.confidence(card_score(probs)) >= sure:
                confirmed.add(code)
        return confirmed

    def _face_witnessed(
        self,
        image: np.ndarray,
        reads: Sequence[IndexRead],
        places: Sequence[Found],
        confirmed: Collection[str] = (),
        faces_read: dict | None = None,
    ) -> set[str]:
        """The cards the map puts at ``FACE_WITNESS[0]`` or more, under the threshold,
        not in ``confirmed``, their best corner read as it is, not every corner grey
        (``GREY_SAT``; as ``CLOSER_GREY``: no witness of a suit in a grey picture),
        that the face classifier names (rank at ``FACE_WITNESS[1]``, suit at
        ``FACE_WITNESS[2]``) on one of ``places`` (faces) that one of their corners
        lies on (``FACE_HOLD``).  Each face is read once, all in one batch
        (``_face_read``; ``faces_read``: its memo)."""
        if self.face_cls_net is None or self.face_witness is None or not places:
            return set()
        least, rank_sure, suit_sure = self.face_witness
        boxes = [box for box, _ in places]
        holding: dict[str, list[int]] = {}
        for code, rs in _by_code(reads).items():
            if code in confirmed or code not in spec.ALL_CODES or _best_inverted(rs):
                continue
            if all(getattr(r, "grey", False) for r in rs):
                continue  # no colour to tell red suits from black: a suit would be shape's alone (CLOSER_GREY)
            if not least <= self.confidence(rs) < self.min_confidence:
                continue
            on = [k for k, face in enumerate(boxes) if any(_near(r.box, face, FACE_HOLD) for r in rs)]
            if on:
                holding[code] = on
        asked = sorted({k for on in holding.values() for k in on})
        if not asked:
            return set()
        rank_p, suit_p = self._face_read(image, [boxes[k] for k in asked], faces_read)
        row = {k: i for i, k in enumerate(asked)}
        out = set()
        for code, on in holding.items():
            r, s = spec.RANK_OUT.index(code[0]), spec.SUITS.index(code[1])
            if any(rank_p[row[k], r] >= rank_sure and suit_p[row[k], s] >= suit_sure for k in on):
                out.add(code)
        return out

    def _face_named(
        self,
        image: np.ndarray,
        reads: Sequence[IndexRead],
        places: Sequence[Found],
        named: Sequence[CardReading],
        faces_read: dict | None = None,
    ) -> list[CardReading]:
        """The cards the face classifier names alone (``FACE_NAMES``), each at the
        threshold with its face's box and no index corner: on each of ``places`` that
        holds no read of ``named`` (``FACE_HOLD``), lies less than ``FACE_NAMES_INSIDE``
        inside another place and overlaps none of ``named`` as placed (``FACE_NAMES_ON``),
        a card it reads surely, as it is and turned (``FACE_NAMES_TURNS``), that none
        of ``named`` is, once; a grey face (``GREY_SAT``) is not asked: a grey picture's
        suit is its shape's alone.  None when the threshold is above the default (as
        ``witnessed``).  The faces are read as they are in one batch (``_face_read``;
        ``faces_read``: its memo, what the face witness read), the sure ones turned in
        another."""
        if self.face_cls_net is None or self.face_names is None or not places:
            return []
        if self.min_confidence > DEFAULT_MIN_CONFIDENCE:
            return []
        rank_sure, suit_sure = self.face_names
        names = {c.card for c in named}
        by_code = _by_code(reads)
        theirs = [r.box for code in names for r in by_code.get(code, [])]
        lying = [c.box for c in placed_cards(named, reads)]
        boxes = [box for box, _ in places]
        asked = [
            box
            for k, box in enumerate(boxes)
            if not any(_near(r, box, FACE_HOLD) for r in theirs)
            and all(_share(box, other) < FACE_NAMES_INSIDE for j, other in enumerate(boxes) if j != k)
            and all(_share(box, b) < FACE_NAMES_ON and _share(b, box) < FACE_NAMES_ON for b in lying)
        ]
        # a grey face is not asked: in a grey picture a suit is its shape's alone (CLOSER_GREY)
        seen = [(box, crop) for box in asked if not is_grey(crop := spec.face_square(image, box))]
        if not seen:
            return []

        def sure(rank_p: np.ndarray, suit_p: np.ndarray) -> list[str | None]:  # each one's card at the bars
            return [
                spec.decode(rp, sp)[0] if rp.max() >= rank_sure and sp.max() >= suit_sure else None
                for rp, sp in zip(rank_p, suit_p)
            ]

        # each face read as it is; those read surely, turned too (FACE_NAMES_TURNS)
        as_is = sure(*self._face_read(image, [box for box, _ in seen], faces_read))
        read = [(box, crop, code) for (box, crop), code in zip(seen, as_is) if code]
        if not read:
            return []
        looks = [cv2.rotate(crop, turn) for _, crop, _ in read for turn in FACE_NAMES_TURNS]
        turned = sure(*self._probs(self.face_cls_net, looks, spec.face_blob)) if looks else []
        k = len(FACE_NAMES_TURNS)
        out: dict[str, CardReading] = {}
        for i, (box, _, code) in enumerate(read):
            if any(other != code for other in turned[i * k : (i + 1) * k]):
                continue  # read as another card turned, or not surely
            if code in spec.ALL_CODES and code not in names and code not in out:
                out[code] = CardReading(code, self.min_confidence, outline([box]), 0)
        return list(out.values())

    def _face_read(
        self,
        image: np.ndarray,
        boxes: Sequence[tuple[float, float, float, float]],
        memo: dict | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The face classifier's rank and suit probabilities of the whole card in each
        of ``boxes`` (``spec.face_square``), in one batch.  ``memo`` (box: its rank and
        suit probabilities) keeps what was read of the picture: a box read already is
        not read again (the face witness and the face classifier naming alone ask about
        some faces both: 22 of 162 in edje's 2x2 and 3x3 webcam frames)."""
        memo = {} if memo is None else memo
        new = [box for box in dict.fromkeys(boxes) if box not in memo]
        if new:
            rank_p, suit_p = self._probs(
                self.face_cls_net, [spec.face_square(image, box) for box in new], spec.face_blob
            )
            memo.update({box: (r, s) for box, r, s in zip(new, rank_p, suit_p)})
        return np.array([memo[box][0] for box in boxes]), np.array([memo[box][1] for box in boxes])

    def _dark_witnessed(self, image: np.ndarray, cards: dict[str, list[IndexRead]]) -> set[str]:
        """Of ``cards`` (code: its reads; each unsure, its best corner read inverted),
        those the dark classifier (``DARK_CLASSIFIER_FILE``) reads as the same card on
        one of its corners read inverted, cut again, as surely as the threshold asks of
        a card (``min_confidence``), and at least ``DARK_SURE``."""
        if self.dark_net is None or not cards:
            return set()
        asked = [(code, r) for code, rs in cards.items() for r in rs if getattr(r, "inverted", False)]
        rank_p, suit_p = self._dark_read(image, [r for _, r in asked])
        least = max(self.min_confidence, DARK_SURE)
        return {code for (code, _), rp, sp in zip(asked, rank_p, suit_p) if _names(rp, sp, code, least)}

    def _dark_read(self, image: np.ndarray, reads: Sequence[IndexRead]) -> tuple[np.ndarray, np.ndarray]:
        """The dark classifier's reading (rank and suit probabilities) of each of
        ``reads``' crops, cut again from ``image`` and inverted, in one batch."""
        if not reads:
            return np.empty((0, len(spec.RANK_OUT))), np.empty((0, len(spec.SUITS)))
        smooth = _smooth(image)
        return self._probs(self.dark_net, [dark_to_light(self._recut(image, r.box, smooth)) for r in reads])

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card named with confidence, most confident first, then face-down
        cards ("back"), then whole face-up cards no index names ("unknown" with no
        index corner: ``unnamed_faces``), then index corners not read with
        confidence ("unknown").  Without ``report_faces`` no whole face is
        reported."""
        return self.read_with_indices(image)[0]

    def read_with_indices(self, image: np.ndarray) -> tuple[list[CardReading], list[SceneRead]]:
        """``read``'s cards and the index reads they were made of (``read_indices``'),
        from one reading of the picture."""
        image = self.balanced(image)
        named, unknown, reads, whole, blob = self._read_cards(image, backs=True)
        if not self.report_faces:
            whole = []
        faces = [r.box for r in reads if r.inverted and r.code not in (spec.NONE, spec.JOKER) and r.prob >= FACE_INDEX]
        backs = [
            CardReading(spec.BACK, round(score, 4), outline([box]), 0)
            for box, score in self.photo.detect_backs(image, blob)
            if not any(holds(box, c) for c in named)
            and not any(_inside(f, box) for f in faces)
            # a whole face found surer than a back it overlaps is that card (a hand over
            # a face looks like a back to the back detector, which never learnt hands)
            and not any(iou(box, f) >= FACE_BACK_IOU and s > score for f, s in whole)
        ]
        # A card read on both index corners is placed as the card lies, not as the
        # band between its corners (their smallest turned rectangle: a thin strip
        # along the card's diagonal), before it is paired with a face: the card its two
        # indices make (card_outline), else its surest corner alone (``_placed``).
        # It is shown so, or, when its indices make no card, where its face is.
        placed = placed_cards(named, reads)
        faces_up, owner = self._paired_faces(image, placed, backs, whole)
        unnamed = _unnamed(faces_up, owner)
        face_of = {k: faces_up[i][0] for i, k in owner.items()}
        shown = [_shown(c, p, face_of.get(k)) for k, (c, p) in enumerate(zip(named, placed))]
        return shown + backs + unnamed + unknown, reads

    def detect_faces(self, image: np.ndarray, blob: np.ndarray | None = None) -> list[Found]:
        """Whole face-up cards: boxes in picture pixels with the face detector's
        scores, strongest first (none without the face detector).  ``blob``: the
        picture scaled for it, when the caller has it (``Recogniser.detect_backs``)."""
        if self.face_net is None:
            return []
        if blob is None:
            blob = face_blob(image, spec.BACK_GRID.size)
        return _grid_peaks(self.face_net, image, spec.BACK_GRID, self.face_threshold, MAX_FACES, blob)

    def unnamed_faces(
        self,
        image: np.ndarray,
        named: Sequence[CardReading],
        backs: Sequence[CardReading] = (),
        whole: Sequence[Found] | None = None,
        reads: Sequence[IndexRead] = (),
    ) -> list[CardReading]:
        """The face-up cards the face detector finds that no named card is, each as
        "unknown" with its whole box and no index corner (``indices`` 0): counted,
        not named (``_pair_faces`` pairs the named cards with faces, each placed by
        ``reads``, the index reads they were named from, when given: ``_placed``); a
        face that a reported back overlaps (``FACE_BACK_IOU``) is that back (``read``
        has left out a back that a surer face overlaps).  ``whole``: the face
        detector's finds, when they are at hand."""
        return _unnamed(*self._paired_faces(image, placed_cards(named, reads), backs, whole))

    def _paired_faces(
        self,
        image: np.ndarray,
        named: Sequence[CardReading],
        backs: Sequence[CardReading] = (),
        whole: Sequence[Found] | None = None,
    ) -> tuple[list[Found], dict[int, int]]:
        """The face-up cards the face detector finds, less those a reported back
        overlaps, and which of them named cards are (``_pair_faces``: face -> card)."""
        faces = [
            (box, score)
            for box, score in (self.detect_faces(image) if whole is None else whole)
            if not any(iou(box, b.box) >= FACE_BACK_IOU for b in backs)
        ]
        return faces, _pair_faces(named, [box for box, _ in faces])

    def named(
        self, image: np.ndarray, short: int | None = None
    ) -> list[tuple[CardReading, list[tuple[float, float, float, float]]]]:
        """Only the cards named with confidence, most confident first, each with the
        boxes of the index corners read as it: what the table camera asks of a frame
        (or of a part of it, ``short`` the frame's short side: ``detect``) whose
        face-down cards the templates have counted."""
        named, _, reads, _, _ = self._read_cards(self.balanced(image), short)
        # a card the face classifier named alone (no index corner) is where its face is
        return [(c, [r.box for r in reads if r.code == c.card] or [c.box]) for c in named]

    def _read_cards(
        self, image: np.ndarray, short: int | None = None, backs: bool = False
    ) -> tuple[
        list[CardReading],
        list[CardReading],
        list[SceneRead],
        list[Found],
        np.ndarray | None,
    ]:
        """The named and the unknown cards, the index reads, the whole faces and the
        whole-card detectors' picture (``_indices``)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise VisionError("expected a BGR colour picture (H x W x 3)")
        reads, whole, places, blob = self._indices(image, short, backs)
        named, unknown = self._cards_in(image, reads, places)
        return named, unknown, reads, whole, blob

    def cards_in(
        self,
        image: np.ndarray,
        reads: Sequence[SceneRead],
        places: Sequence[Found] = (),
    ) -> tuple[list[CardReading], list[CardReading]]:
        """The named and the unknown cards of ``reads``, index corners read in
        ``image`` (all or some of them: the benchmark's crowded frames make each
        photo's cards of the corners in its part): ``cards`` with a second witness
        for the unsure ones (``witnessed``), and left unknown: a black card that its
        colour, not its shape, made black (``suit_colour_doubt``) and a card read
        inverted that the dark classifier reads as another (``dark_disputed``); and the
        cards the face classifier names alone on faces no named card is (``_face_named``;
        an unsure corner on such a card's face is that card's: no "unknown" line).
        ``places``: the faces found there (``_indices``), for the face witness and the
        face classifier."""
        return self._cards_in(self.balanced(image), reads, places)

    def _cards_in(
        self,
        image: np.ndarray,
        reads: Sequence[SceneRead],
        places: Sequence[Found] = (),
    ) -> tuple[list[CardReading], list[CardReading]]:
        faces_read: dict = {}  # each face the face classifier reads, read once (_face_read)
        confirmed = self.witnessed(image, reads, places, faces_read)
        named, unknown = self.cards(reads, confirmed=confirmed)
        by_code = _by_code(reads)
        alone = self._face_named(image, reads, places, named, faces_read)
        # a card read inverted that the dark witness confirmed it has read as that card already
        disputed = self.dark_disputed(image, {c.card: by_code[c.card] for c in named if c.card not in confirmed})
        doubted = {
            c.card: DISPUTED if c.card in disputed else COLOUR
            for c in named
            if c.card in disputed or self.suit_colour_doubt(image, by_code[c.card])
        }
        if doubted:
            unknown = sorted(
                unknown
                + [
                    CardReading(UNKNOWN, min(c.confidence, self.min_confidence), c.corners, 1, doubted[c.card])
                    for c in named
                    if c.card in doubted
                ],
                key=lambda c: -c.confidence,
            )
            named = [c for c in named if c.card not in doubted]
        # (a card held back as disputed or for its colour is not named by another way)
        alone += self._dark_named(image, reads, {c.card for c in named + alone} | set(doubted))
        if alone:  # an unsure corner on the face of a card named from it (or that corner) is that card's
            unknown = [u for u in unknown if u.why != UNSURE or not any(_inside(u.box, a.box) for a in alone)]
        return named + alone, unknown

    def _dark_named(self, image: np.ndarray, reads: Sequence[SceneRead], named: Collection[str]) -> list[CardReading]:
        """The cards the dark classifier names alone (``DARK_NAMES``), each at the
        threshold where its corner is: on each of ``reads`` read as it is (not inverted)
        as no card or less surely than ``cascade``, whose crop's middle is dark (below
        ``DARK_NAMES``) and which has some colour (a grey crop's suit is its shape's
        alone: ``CLOSER_GREY``), a card it reads at ``DARK_SURE`` or more (and the threshold)
        that is not in ``named`` (the cards named, or held back, already), once.  None
        when the threshold is above the default (as ``witnessed``) or the reader reads no
        crop inverted (``invert``)."""
        if (
            not self.invert
            or self.dark_net is None
            or DARK_NAMES is None
            or self.min_confidence > DEFAULT_MIN_CONFIDENCE
        ):
            return []
        smooth = _smooth(image)
        asked: list[tuple[SceneRead, np.ndarray]] = []
        for r in reads:
            if r.inverted or (r.code not in (spec.NONE, spec.JOKER) and r.prob >= self.cascade):
                continue
            crop = self._recut(image, r.box, smooth)
            h, w = crop.shape[:2]
            middle = cv2.cvtColor(crop[h // 4 : h - h // 4, w // 4 : w - w // 4], cv2.COLOR_BGR2GRAY)
            if spec.percentiles(middle, (50,))[0] < 255 * DARK_NAMES and not is_grey(crop):
                asked.append((r, crop))
        if not asked:
            return []
        rank_p, suit_p = self._probs(self.dark_net, [dark_to_light(crop) for _, crop in asked])
        least = max(self.min_confidence, DARK_SURE)
        out: dict[str, CardReading] = {}
        for (r, _), rp, sp in zip(asked, rank_p, suit_p):
            code, p = spec.decode(rp, sp)
            if p >= least and code in spec.ALL_CODES and code not in named and code not in out:
                out[code] = CardReading(code, self.min_confidence, outline([r.box]), 1)
        return list(out.values())

    def dark_disputed(self, image: np.ndarray, cards: dict[str, Sequence[IndexRead]]) -> set[str]:
        """Of ``cards`` (code: the reads naming it), those whose best corner was read
        inverted that the dark classifier vetoes (``DARK_CLASSIFIER_FILE``): its
        best reading of each of the card's inverted corners, cut again, is not the
        card.  None without the dark classifier.  Each card's surest inverted corner
        is read first, all cards in one batch; the other corners only of the cards
        it does not read as theirs (most it does)."""
        if self.dark_net is None:
            return set()
        corners = {
            code: sorted((r for r in rs if getattr(r, "inverted", False)), key=lambda r: -r.prob)
            for code, rs in cards.items()
            if rs and _best_inverted(rs)
        }
        disputed = set(corners)
        for asked in (
            [(code, rs[0]) for code, rs in corners.items()],
            [(c, r) for c, rs in corners.items() for r in rs[1:]],
        ):
            asked = [(code, r) for code, r in asked if code in disputed]
            rank_p, suit_p = self._dark_read(image, [r for _, r in asked])
            disputed -= {code for (code, _), rp, sp in zip(asked, rank_p, suit_p) if _names(rp, sp, code, 0.0)}
        return disputed

    def _recut(self, image: np.ndarray, box: tuple[float, float, float, float], smooth: bool) -> np.ndarray:
        """The crop of a read's ``box`` cut again from ``image`` as it was cut to be read
        (``crop_scale``; ``smooth``: see ``_smooth``), not yet inverted."""
        x0, y0, x1, y1 = box
        return spec.crop_square(
            image, (x0 + x1) / 2, (y0 + y1) / 2, spec.box_side(*box) * self.crop_scale, smooth=smooth
        )

    def suit_colour_doubt(self, image: np.ndarray, reads: Sequence[IndexRead]) -> float:
        """For a card read with a black suit on grey corners only (``GREY_SAT``): the
        most any of its corners, read again with its ink drawn red (``red_ink``) by
        the classifier that read it, gives the same rank in a red suit, when that is
        at least ``GREY_SUIT`` (the colour, not the shape, decided the suit); else 0."""
        if not reads or reads[0].code[1:] not in ("S", "C") or not all(getattr(r, "grey", False) for r in reads):
            return 0.0
        rank = spec.RANK_OUT.index(reads[0].code[0])
        red = [spec.SUITS.index(s) for s in "HD"]
        doubt, smooth = 0.0, _smooth(image)
        for r in reads:
            crop = self._recut(image, r.box, smooth)
            crop = red_ink(dark_to_light(crop) if getattr(r, "inverted", False) else crop)
            net = self.scene_net if getattr(r, "second", False) and self.scene_net is not None else None
            rank_p, suit_p = self._probs(net or self.classifier_net, [crop])
            doubt = max(doubt, float(rank_p[0, rank] * suit_p[0, red].sum()))
        return doubt if doubt >= GREY_SUIT else 0.0


def _smooth(image: np.ndarray, short: int | None = None) -> bool:
    """Whether crops of ``image`` (a part of a frame whose short side is ``short``) are
    averaged before they are warped (``spec.crop_square``'s ``smooth``): only in a
    picture larger than any the networks and the map were measured on (``SMOOTH_ABOVE``)."""
    return (short or min(image.shape[:2])) > SMOOTH_ABOVE


def second_path(read: IndexRead, cascade: float = CASCADE) -> bool:
    """Whether a card whose best corner is ``read`` is judged by the second path's
    map: the scene classifier read it (the second opinion), or the single-card
    classifier read it less surely than ``cascade`` (a reader without the scene
    classifier).  The first path's map learnt from sure readings only, so it says
    nothing of an unsure one (it would name a corner read at 0.3 at 0.94)."""
    return bool(getattr(read, "second", False)) or read.prob < cascade


def calibration_weights(calibration: dict, second: bool) -> list[float]:
    """The confidence map's weights for a card whose best corner was read by the
    single-card classifier (``w``) or by the scene classifier (``w_second``).
    Measured on the validation folds (157 photos, out of fold, at 0.97): one map
    for both paths named 62 of 66 single cards, 84 of 109 ``edje`` ranks and 18
    of 43 black and gold cards, a map per path 64, 87 and 19, with the same one
    wrong card: a sure reading of the first classifier was held below the
    threshold by a map fitted mostly on the second's unsure ones."""
    if second and "w_second" in calibration:
        return calibration["w_second"]
    return calibration["w"]


def _names(rank_p: np.ndarray, suit_p: np.ndarray, code: str, least: float) -> bool:
    """Whether a reading (rank and suit probabilities) names ``code`` at ``least`` or more."""
    read, p = spec.decode(rank_p, suit_p)
    return read == code and p >= least


def _best_inverted(reads: Sequence[IndexRead]) -> bool:
    """Whether the surest of a card's ``reads`` was read inverted (light glyphs on a dark face)."""
    return bool(getattr(max(reads, key=lambda r: r.prob), "inverted", False))


def _by_code(reads: Sequence[IndexRead]) -> dict[str, list[IndexRead]]:
    """The reads naming a card, by code (no index and jokers left out: a joker is no
    Chicago card, nor worth an "unknown" line)."""
    by_code: dict[str, list[IndexRead]] = {}
    for r in reads:
        if r.code not in (spec.NONE, spec.JOKER):
            by_code.setdefault(r.code, []).append(r)
    return by_code


def _near(box, corner, grow: float = WITNESS_NEAR) -> bool:
    """Whether the middle of ``box`` lies in ``corner`` grown by ``grow`` of its side."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    g = max(corner[2] - corner[0], corner[3] - corner[1]) * grow
    return corner[0] - g <= cx <= corner[2] + g and corner[1] - g <= cy <= corner[3] + g


def _pair_faces(named: Sequence[CardReading], boxes: Sequence[tuple[float, float, float, float]]) -> dict[int, int]:
    """The faces (indices into ``boxes``) that named cards are, each with its card's
    index in ``named``: as many cards paired
    with a face as can be (each card and each face once, a pair only where the face
    could be the card: ``_could_be``), each card trying the faces that fit it best
    first (``_fit``), cards read on both corners first (they show more of where the
    card is).  A greedy pairing left a card's own face unpaired when its index lay
    by the edge of a neighbour's box too."""
    options = [
        sorted((i for i, box in enumerate(boxes) if _could_be(box, card)), key=lambda i: _fit(boxes[i], card))
        for card in named
    ]
    owner: dict[int, int] = {}  # face -> card

    def place(k: int, tried: set[int]) -> bool:  # an augmenting path (Kuhn's algorithm)
        for i in options[k]:
            if i in tried:
                continue
            tried.add(i)
            if i not in owner or place(owner[i], tried):
                owner[i] = k
                return True
        return False

    for k in sorted(range(len(named)), key=lambda k: named[k].indices < 2):
        place(k, set())
    return owner


def _placed(card: CardReading, reads: Sequence[IndexRead]) -> CardReading:
    """``card`` (named from ``reads``, the reads of its code) where it lies: read on two
    corners, the card its surest corner and another make (``card_outline``: of its sure
    reads, ``PLACE_SURE``, first, then of all); when they make none (one corner found
    twice, or another card's corner read as this card, far off), its surest corner
    alone, as a card read on one corner (``indices`` 1): the band across both would
    pair it with no face, and its own face would be counted again, unnamed."""
    if card.indices < 2 or not reads:
        return card
    ranked = sorted(reads, key=lambda r: -r.prob)
    sure = [r.box for r in ranked if r.prob >= PLACE_SURE]
    whole = card_outline(sure) if len(sure) >= 2 else None
    if whole is None:
        whole = card_outline([r.box for r in ranked])
    if whole is not None:
        return replace(card, corners=whole)
    return replace(card, corners=outline([ranked[0].box]), indices=1)


def placed_cards(named: Sequence[CardReading], reads: Sequence[IndexRead]) -> list[CardReading]:
    """Each of ``named`` (cards made of ``reads``: ``SceneReader.cards``) where it lies
    (``_placed``), by the reads of its code: what ``read`` pairs with faces."""
    by_code = _by_code(reads)
    return [_placed(c, by_code.get(c.card, [])) for c in named]


def _shown(card: CardReading, placed: CardReading, face: tuple | None) -> CardReading:
    """``card`` with the outline ``read`` shows: where it lies (``placed``), or, read on
    two corners that make no card, its face when one is paired with it (no band across
    two cards)."""
    if placed.indices == card.indices or face is None:
        return replace(placed, indices=card.indices)
    return replace(card, corners=outline([face]))


def _unnamed(faces: Sequence[Found], paired: Collection[int]) -> list[CardReading]:
    """The faces no named card is (``paired``: the indices of those that are), each
    as "unknown" with its whole box and no index corner, surest first."""
    return sorted(
        (
            CardReading(UNKNOWN, round(score, 4), outline([box]), 0, FACE)
            for i, (box, score) in enumerate(faces)
            if i not in paired
        ),
        key=lambda c: -c.confidence,
    )


def _could_be(box, card: CardReading, grow: float = 0.1) -> bool:
    """Whether a whole face's box could be the face of ``card``, named by its index
    corners: the box (grown by ``grow`` of its sides) holds the middle of what was
    read of it, and a card read on both corners spans its face corner to corner, so
    their box overlaps the face's (IoU ``FACE_SPAN`` or more)."""
    x0, y0, x1, y1 = box
    gx, gy = grow * (x1 - x0), grow * (y1 - y0)
    mx, my = card.middle
    if not (x0 - gx <= mx <= x1 + gx and y0 - gy <= my <= y1 + gy):
        return False
    return card.indices < 2 or iou(box, card.box) >= FACE_SPAN


def _fit(box, card: CardReading) -> float:
    """How badly a face's box fits a named card (less is better): a card read on both
    corners spans its face corner to corner, so its box should overlap the face's
    most (1 - IoU); a card read on one corner has it by its face's edge (every
    corner of a card, however turned, lies on its upright box's edge, and an index
    sits by a corner): the distance in, as a share of the box's short side, 0 on
    its edge or up to ``FACE_EDGE`` outside; a box it lies further outside of
    (``_could_be`` lets a box grown by a tenth hold it) fits worse than any that
    holds it, by 1 and the distance out (an index is printed on its own face: a
    corner outside a neighbour's box is not that neighbour's when a face holds it)."""
    if card.indices >= 2:
        return 1.0 - iou(box, card.box)
    x0, y0, x1, y1 = box
    mx, my = card.middle
    inside = min(mx - x0, x1 - mx, my - y0, y1 - my) / max(1.0, min(x1 - x0, y1 - y0))
    return max(inside, 0.0) if inside >= -FACE_EDGE else 1.0 - inside


def _ious(boxes: Sequence, others: Sequence) -> np.ndarray:
    """``iou`` of every box of ``boxes`` with every one of ``others`` (a len(boxes) x
    len(others) array), the same values, computed alike, at once."""
    a = np.asarray(boxes, np.float64).reshape(-1, 4)[:, None, :]
    b = np.asarray(others, np.float64).reshape(-1, 4)[None, :, :]
    ix = np.maximum(0.0, np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]))
    iy = np.maximum(0.0, np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]))
    inter = ix * iy
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    out: np.ndarray = inter / (area_a + area_b - inter + 1e-9)
    return out


def _inside(inner, outer) -> bool:
    """Whether the middle of box ``inner`` lies in box ``outer``."""
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def _share(inner, outer) -> float:
    """How much of box ``inner``'s area lies in box ``outer``."""
    w = min(inner[2], outer[2]) - max(inner[0], outer[0])
    h = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return max(0.0, w) * max(0.0, h) / area if area > 0 else 0.0


def _unsure(rank_p: np.ndarray, suit_p: np.ndarray, cascade: float) -> bool:
    """Whether the single-card classifier's reading is worth a second opinion:
    less sure than ``cascade``, and not a fairly sure "no index" (``NONE_SURE``)."""
    code, p = spec.decode(rank_p, suit_p)
    return p < cascade and not (code == spec.NONE and p >= NONE_SURE)


def _better(a: tuple, b: tuple) -> bool:
    """Whether reading ``a`` (code, probability, ...) of one crop names an index more
    surely than ``b``: a card (of either polarity) beats "no index" and a joker."""

    def key(r: tuple) -> tuple[bool, float]:
        return r[0] not in (spec.NONE, spec.JOKER), r[1]

    return key(a) > key(b)


def _best(rank_p: np.ndarray, suit_p: np.ndarray) -> float:
    """The probability of the best reading, as spec.decode gives it (no-index too)."""
    return spec.decode(rank_p, suit_p)[1]


def card_features(reads: Sequence[IndexRead]) -> list[float]:
    """What the confidence map sees of one card read alike on ``reads``: the best
    corner's reading probability and detection score (as log-odds), and the
    probability of the best read of *another* corner of it (one far enough away:
    the same corner found at two scales is no second witness), 0 if none; and
    whether the best corner was read inverted (light glyphs on a dark face: a
    print the networks never learnt, whose reads are measured less sure).  The map
    learns what that second corner is worth instead of taking it as independent."""
    best = max(reads, key=lambda r: r.prob)
    side = max(best.box[2] - best.box[0], best.box[3] - best.box[1])
    cx, cy = (best.box[0] + best.box[2]) / 2, (best.box[1] + best.box[3]) / 2
    other = [r.prob for r in reads if math.hypot((r.box[0] + r.box[2]) / 2 - cx, (r.box[1] + r.box[3]) / 2 - cy) > side]
    return [
        _logit(best.prob),
        _logit(max(r.score for r in reads)),
        max(other, default=0.0),
        float(getattr(best, "inverted", False)),
        1.0,
    ]


def face_picture(picture: np.ndarray, short: int, squash: float = FACE_SQUASH) -> np.ndarray:
    """``picture`` scaled for the face detector (and for the back detector, which
    shares its picture): its short side ``short`` pixels and its long side as long as
    it is squashed by at most ``squash`` (a square for a photo of 4:3 or squarer, as
    the detectors have always seen one), both a multiple of the detectors' stride;
    INTER_AREA when it shrinks both sides (``spec.det_blob``'s), else INTER_LINEAR.

        >>> [face_picture(np.zeros((448, 796, 3), np.uint8), 512).shape[:2], face_picture(np.zeros((480, 640, 3), np.uint8), 512).shape[:2]]
        [(512, 688), (512, 512)]
    """
    h, w = picture.shape[:2]
    stride = spec.BACK_GRID.stride
    longer = max(short, int(round(short * max(w, h) / min(w, h) / squash / stride)) * stride)
    size = (longer, short) if w >= h else (short, longer)
    shrink = size[0] <= w and size[1] <= h
    return cv2.resize(picture, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def face_blob(picture: np.ndarray, short: int) -> np.ndarray:
    """The face (and back) detector's input for ``picture``: ``face_picture`` with
    the reader's ``FACE_SQUASH`` (read when called, so that a change of it counts)."""
    return spec.net_input(face_picture(picture, short, FACE_SQUASH))


def corners_seen(reads: Sequence[IndexRead]) -> int:
    """How many distinct index corners ``reads`` are (1 or 2)."""
    return 2 if card_features(reads)[2] > 0 else 1


def light_glyphs(gray: np.ndarray) -> bool:
    """Whether a grey crop's ink is lighter than its paper: the glyphs are the few
    pixels far from the median, so the side of the median that reaches further
    (the 98th percentile above it against the 2nd below it) is the ink's."""
    return _lighter_ink(*spec.percentiles(gray, (2, 50, 98)))


def _lighter_ink(lo: float, mid: float, hi: float) -> bool:
    """``light_glyphs`` from a grey crop's 2nd, 50th and 98th percentiles."""
    return hi - mid > mid - lo


def is_grey(crop: np.ndarray) -> bool:
    """Whether a BGR crop has no colour to tell a red suit from a black one."""
    sat = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)[:, :, 1]
    return spec.percentiles(sat, (90,))[0] < GREY_SAT


def red_ink(crop: np.ndarray) -> np.ndarray:
    """A grey crop with its ink drawn red and its paper kept: how the index would
    look were the card red.  The ink is how far a pixel is below the paper (the
    90th percentile of brightness) towards the darkest (the 2nd)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    ink_level, paper = spec.percentiles(grey, (2, 90))
    gray = grey.astype(np.float32)
    ink = np.clip((paper - gray) / max(paper - ink_level, 1.0), 0.0, 1.0)
    red = gray * (1 - ink) + ink * min(paper, 220.0)
    return np.clip(np.stack([gray, gray, red], axis=2), 0, 255).astype(np.uint8)


def white_balanced(image: np.ndarray, percentile: float, white: float, cast: float, dim: float) -> np.ndarray:
    """``image`` with each channel scaled so that its ``percentile`` (measured on about
    WHITE_SAMPLES pixels) is ``white``, by at most WHITE_GAIN; ``image`` itself when the
    channels' gains differ by less than ``cast`` and that point's darkest channel is at
    least ``dim``.

        >>> warm = np.full((64, 64, 3), (150, 200, 240), np.uint8)
        >>> white_balanced(warm, 99.0, 235.0, 1.1, 180.0)[0, 0].tolist()
        [235, 235, 235]
        >>> white = np.full((64, 64, 3), 230, np.uint8)
        >>> white_balanced(white, 99.0, 235.0, 1.1, 180.0) is white
        True
    """
    h, w = image.shape[:2]
    step = max(1, int(math.sqrt(h * w / WHITE_SAMPLES)))
    sample = np.ascontiguousarray(image[::step, ::step])
    point = np.empty(3, np.float32)
    for c in range(3):  # the percentile of a channel from its histogram: a tenth of np.percentile's time
        counts = np.cumsum(cv2.calcHist([sample], [c], None, [256], [0, 256]).ravel())
        point[c] = np.searchsorted(counts, counts[-1] * percentile / 100)
    gain = white / np.maximum(point, 1.0)
    if gain.max() / gain.min() < cast and point.min() >= dim:
        return image
    gain = np.minimum(gain, WHITE_GAIN)
    # each channel through its own table: no float copy of the picture
    table = np.clip(np.round(np.arange(256, dtype=np.float32)[:, None] * gain), 0, 255).astype(np.uint8)
    return cv2.LUT(image, table.reshape(1, 256, 3))


def dark_to_light(crop: np.ndarray) -> np.ndarray:
    """A crop with its lightness inverted and its hue kept: gold glyphs on black
    become dark orange on white, nearer the red of a heart than the blue a plain
    inversion gives (measured on the black and gold deck's photos that are not
    held out: at raw 0.9, 0 wrong of 44 named against 1 of 28)."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    lab[:, :, 0] = 255 - lab[:, :, 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _peaks(net, small: np.ndarray, threshold: float, full: tuple[int, int]) -> list[Found]:
    """Every local maximum of the index detector's heat map of ``small`` (the picture
    scaled for it) above ``threshold`` as a box in the pixels of the picture, ``full``
    (width, height), with its score (no cap: a crowded table has many)."""
    grid = spec.INDEX_GRID
    w, h = full
    sh, sw = small.shape[:2]
    out = net.run(spec.net_input(small))[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    ys, xs = np.nonzero(peaks)
    sx, sy = w / sw, h / sh
    found = []
    for j, i in zip(ys, xs):
        cx, cy = (i + 0.5) * grid.stride * sx, (j + 0.5) * grid.stride * sy
        bw = float(np.exp(out[1, j, i])) * grid.unit * sx
        bh = float(np.exp(out[2, j, i])) * grid.unit * sy
        found.append(((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), float(heat[j, i])))
    return found


def skew(crop: np.ndarray) -> tuple[float, float]:
    """How far the index in a BGR crop lies turned from upright, in degrees (-45 to 45:
    its edges' direction modulo a quarter turn, the gradients' fourfold angle weighted
    by their strength squared; 23 microseconds a 48 x 48 crop), and how coherent that
    direction is (0: none, 1: every edge one way).  A glyph's own slanted strokes pull
    it towards 0, so a turned index measures short (``_read_upright`` measures twice).

        >>> img = np.full((120, 120, 3), 255, np.uint8)
        >>> _ = cv2.rectangle(img, (30, 30), (90, 90), (0, 0, 0), 3)
        >>> round(skew(img)[0], 1), skew(img)[1] > 0.9
        (0.0, True)
        >>> m = cv2.getRotationMatrix2D((60, 60), 30, 1.0)
        >>> turned = cv2.warpAffine(img, m, (120, 120), borderValue=(255, 255, 255))
        >>> -34 < skew(turned)[0] < -26  # a square turned 30 degrees counter-clockwise
        True
    """
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    w = gx * gx + gy * gy
    # the gradient squared (its angle doubled) squared again over its strength squared:
    # the strength squared at four times the angle, without a trigonometric function a pixel
    a, b = gx * gx - gy * gy, 2 * gx * gy
    safe = np.maximum(w, 1e-12)
    re, im = float(((a * a - b * b) / safe).sum()), float((2 * a * b / safe).sum())
    return float(np.degrees(np.arctan2(im, re) / 4)), float(np.hypot(re, im) / max(float(w.sum()), 1e-6))
