"""The protocol's words, Swedish first (RULES.md §1 terms), English on request.

    >>> words("sv")["game"], reason_text("chicago_broken", "en")
    ('Omgång', 'broke a Chicago')

Kept apart from the dashboard's message catalogue so the printed form stays the same
whatever the pages say; it can move into the shared catalogue later.
"""

from __future__ import annotations

import re

LANGS = ("sv", "en")

WORDS: dict[str, dict[str, str]] = {
    "sv": {
        "protocol": "Protokoll",
        "game": "Omgång",
        "of": "av",
        "event": "Tävling",
        "heat": "Heat",
        "round": "Rond",
        "table": "Bord",
        "date": "Datum",
        "start": "Start",
        "end": "Slut",
        "ruleset": "Regelverk",
        "player": "Spelare",
        "id": "Id",
        "club": "Klubb",
        "tally": "Poäng (streck)",
        "score": "Sidopoäng",
        "place": "Plats",
        "pp": "Omgångspoäng",
        "pp_short": "Omg.poäng",
        "winner": "Vinnare",
        "finished": "Avslutad",
        "in_progress": "Pågår",
        "marks": "streck",
        "minus": "avdrag",
        "said": "Sade Chicago (ringad)",
        "out": "Gick ut utan Chicago (r21)",
        "legend": "Ringat namn: har sagt Chicago i omgången (r10).  * : en vunnen Chicago.  Röda streck: avdrag.",
        "deals": "Giv för giv (knappen inom parentes)",
        "deal": "Giv",
        "deals_cont": "giv för giv (forts.)",
        "notes": "Straff, varningar och TL-beslut",
        "no_notes": "Inga straff, varningar eller TL-beslut.",
        "revisor_sign": "Revisor: underskrift",
        "tl_sign": "TL: underskrift",
        "signed_at": "Signerat i appen {date} kl. {time}",
        "signed": "Signerat i appen",
        "summary": "Bordets resultat",
        "total_pp": "Summa omgångspoäng",
        "total_score": "Summa sidopoäng",
        "won_chicagos": "Vunna Chicago",
        "rank": "Placering",
        "goes_on": "Går vidare",
        "tiebreak": "Särskiljning",
        "playoff": "Särspel",
        "table_open": "Bordet pågår: ställningen är preliminär.",
        "tb_score": "före {b} på total sidopoäng (r11)",
        "tb_chicago": "före {b} på vunna Chicago (r11)",
        "tb_playoff": "före {b} efter särspel (r11)",
        "tb_shared": "delar plats med {b}",
        "tb_who": "{a} ({pp} omgångspoäng, {score} sidopoäng, {chicagos} vunna Chicago)",
        "playoff_between": "Särspel mellan {players}: {deals} givar utan Chicago (r11)",
        "none_on": "ingen ännu",
        "no_game": "Ingen omgång har startat än.",
        "log_head": "Loggens huvud",
        "record": "post",
        "between": "mellan givarna",
        "before_deal": "före giv {n}",
        "page": "Sida",
        "asked": "begärt {asked}, verkställt {points} (sidopoäng aldrig under 0, r19)",
        "time": "Tid",
        "note_penalty": "Straff",
        "note_warning": "Varning",
        "note_adjust": "TL-rättelse",
        "note_violation": "Tidsöverträdelse",
        "note_dead": "Död hand",
        "place_pp": "plats/poäng",
        "applied": "verkställt {points}, aldrig under 0 (r19)",
        "applied_short": "verkställt {points}, r19",
        "voids": "upphäver ett tidigare TL-beslut",
    },
    "en": {
        "protocol": "Protocol",
        "game": "Game",
        "of": "of",
        "event": "Event",
        "heat": "Heat",
        "round": "Round",
        "table": "Table",
        "date": "Date",
        "start": "Start",
        "end": "End",
        "ruleset": "Ruleset",
        "player": "Player",
        "id": "Id",
        "club": "Club",
        "tally": "Points (tally)",
        "score": "Score",
        "place": "Place",
        "pp": "Placement points",
        "pp_short": "Pl. points",
        "winner": "Winner",
        "finished": "Finished",
        "in_progress": "In progress",
        "marks": "marks",
        "minus": "minus",
        "said": "Said Chicago (circled)",
        "out": "Out without Chicago (r21)",
        "legend": "Circled name: said Chicago in this game (r10).  * : one won Chicago.  Red marks: points taken away.",
        "deals": "Deal by deal (button in brackets)",
        "deal": "Deal",
        "deals_cont": "deal by deal (continued)",
        "notes": "Penalties, warnings and TL decisions",
        "no_notes": "No penalties, warnings or TL decisions.",
        "revisor_sign": "Revisor: signature",
        "tl_sign": "TL: signature",
        "signed_at": "Signed in the app {date} at {time}",
        "signed": "Signed in the app",
        "summary": "Table result",
        "total_pp": "Placement points total",
        "total_score": "Score total",
        "won_chicagos": "Won Chicagos",
        "rank": "Rank",
        "goes_on": "Goes on",
        "tiebreak": "Tiebreak",
        "playoff": "Playoff (särspel)",
        "table_open": "The table is still playing: standings are provisional.",
        "tb_score": "ahead of {b} on total score (r11)",
        "tb_chicago": "ahead of {b} on won Chicagos (r11)",
        "tb_playoff": "ahead of {b} after the playoff (r11)",
        "tb_shared": "shares the place with {b}",
        "tb_who": "{a} ({pp} placement points, {score} score, {chicagos} won Chicagos)",
        "playoff_between": "Playoff between {players}: {deals} deals without Chicago (r11)",
        "none_on": "nobody yet",
        "no_game": "No game has started yet.",
        "log_head": "Log head",
        "record": "record",
        "between": "between deals",
        "before_deal": "before deal {n}",
        "page": "Page",
        "asked": "asked {asked}, applied {points} (a score never goes below 0, r19)",
        "time": "Time",
        "note_penalty": "Penalty",
        "note_warning": "Warning",
        "note_adjust": "TL correction",
        "note_violation": "Time violation",
        "note_dead": "Dead hand",
        "place_pp": "place/points",
        "applied": "applied {points}, never below 0 (r19)",
        "applied_short": "applied {points}, r19",
        "voids": "voids an earlier TL ruling",
    },
}

REASONS: dict[str, tuple[str, str]] = {  # REPLAY.md award reasons: (sv, en)
    "one_pair": ("ett par", "one pair"),
    "two_pair": ("två par", "two pair"),
    "three_of_a_kind": ("triss", "three of a kind"),
    "straight": ("stege", "straight"),
    "flush": ("färg", "flush"),
    "full_house": ("kåk", "full house"),
    "four_of_a_kind": ("fyrtal", "four of a kind"),
    "straight_flush": ("färgstege", "straight flush"),
    "royal_flush": ("royal straight flush", "royal flush"),
    "zeroed": ("nollad", "zeroed"),
    "last_trick": ("sista sticket", "last trick"),
    "last_trick_two": ("sista sticket med en tvåa", "last trick with a two"),
    "chicago_won": ("vann Chicago", "won a Chicago"),
    "chicago_lost": ("förlorade Chicago", "lost a Chicago"),
    "chicago_broken": ("bröt Chicago", "broke a Chicago"),
    "dealer_error": ("givarfel", "dealer error"),
    "revoke": ("bekände inte färg", "revoke"),
    "draw_stop_attempt": ("byte trots köpstopp", "exchange at draw stop"),
    "penalty": ("straff", "penalty"),
    "adjust": ("TL-rättelse", "TL correction"),
}

# Awards that are penalties (RULES.md §4, §7, §11): marked as such on the form.
PENALTY_REASONS = frozenset({"dealer_error", "revoke", "draw_stop_attempt", "penalty"})

PENALTY_KINDS: dict[str, tuple[str, str]] = {  # REPLAY.md `penalty` kinds
    "warning": ("varning", "warning"),
    "sit_out_deal": ("står över en giv", "sits out a deal"),
    "sit_out_game": ("står över omgången", "sits out the game"),
    "last_place": ("sista plats", "last place"),
    "no_placement": ("inga omgångspoäng", "no placement points"),
    "points": ("poängavdrag", "point deduction"),
}

CLOCKS: dict[str, tuple[str, str]] = {  # RULES.md §10
    "exchange": ("byte", "exchange"),
    "chicago": ("Chicagofrågan", "Chicago question"),
    "quads": ("fyrtalsvalet", "quads choice"),
    "play": ("utspel", "trick play"),
}


# The reason of the correction that gives a voided ruling's points back (``TableHub.void``):
# the ruling's record in the log, and the TL's words.  The protocol says it in words, the
# record's number being the log's, not the paper's.
VOID_REASON = "void {ruling}: {reason}"
_VOID = re.compile(r"void (\d+): (.*)", re.S)


def voided(reason: str) -> tuple[int, str] | None:
    """A void's correction's reason (``VOID_REASON``) as the ruling it voids and why.

    >>> voided("void 8: fel spelare"), voided("a miscount")
    ((8, 'fel spelare'), None)
    """
    m = _VOID.fullmatch(reason)
    return (int(m.group(1)), m.group(2)) if m else None


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGS)}")
    return WORDS[lang]


def _pick(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    pair = table.get(key)
    if pair is None:
        return key.replace("_", " ")
    return pair[0] if lang == "sv" else pair[1]


def reason_text(reason: str, lang: str) -> str:
    return _pick(REASONS, reason, lang)


def penalty_kind_text(kind: str, lang: str) -> str:
    return _pick(PENALTY_KINDS, kind, lang)


def clock_text(clock: str, lang: str) -> str:
    return _pick(CLOCKS, clock, lang)


# The rulesets by the names of their rules (RULES.md's seeds), not their codes: the names the
# pages' entry by hand offers (common.js), from the same catalogue
RULESET_NAMES = {
    "sm2025": "SM 2025 (rules of June 2025)",
    "sm2019": "SM 2019",
    "shootout": "Chicago Shootout",
    "classic": "classic Chicago",
}


def ruleset_text(code: str, lang: str) -> str:
    """A ruleset's name on the form; an unknown code as it is.

    >>> ruleset_text("sm2025", "sv"), ruleset_text("house", "en")
    ('SM 2025 (reglerna från juni 2025)', 'house')
    """
    from ..i18n import tr

    return tr(RULESET_NAMES[code], lang) if code in RULESET_NAMES else code
