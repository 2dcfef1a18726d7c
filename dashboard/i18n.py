"""The dashboard's texts in Swedish first, English second, from one gettext catalogue.

The message ids are the English texts; ``dashboard/locale/sv/LC_MESSAGES/messages.po``
holds the Swedish ones (RULES.md's words: köpstopp, revisor, särspel, giv, omgång, byte,
öppet byte, stick, utgång).  The pages and the server share it:

- Python marks a text with ``N_`` (or raises ``DashboardError`` with it) and translates it
  where it is answered, in the request's language (``?lang=en``; Swedish by default).
- The pages load ``/static/i18n.js?lang=..`` (the catalogue as JSON, ``I18N``) before
  ``common.js``, whose ``t("...")``/``tn(...)`` look texts up; ``/api/i18n`` gives the same
  JSON to any other page.

``make i18n`` extracts the texts (``babel.cfg``), updates the ``.po`` and compiles the
``.mo`` that is shipped; ``tests/dashboard/test_i18n.py`` fails when the ``.mo`` is stale
or a marked text has no Swedish.

    >>> tr("Pause", "sv"), tr("Pause", "en")
    ('Paus', 'Pause')
    >>> tr("{player} does not play in this game", "sv", player="Bo")
    'Bo spelar inte i den här omgången'
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from table_controller.rules.engine import COUNT_WORDS

LANGS = ("sv", "en")
DEFAULT = "sv"
LOCALE = Path(__file__).with_name("locale")
DOMAIN = "messages"
# The console's words for officials (``setup``, ``doctor``: table_controller/app/words.py),
# a catalogue of their own so that the pages' ``i18n.js`` does not carry them.
CONSOLE = "console"
DOMAINS = (DOMAIN, CONSOLE)


def N_(text: str) -> str:
    """Mark a text for the catalogue; it is translated where it is shown."""
    return text


def lang_of(value: str | None) -> str:
    return value if value in LANGS else DEFAULT


@functools.cache
def translations(lang: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()  # the message ids are the English texts
    return gettext.translation(domain, LOCALE, languages=[lang])


def tr(text: str, lang: str, **params: Any) -> str:
    out = translations(lang_of(lang)).gettext(text)
    return genitive(out, params).format(**params) if params else out


def genitive(text: str, params: dict[str, Any]) -> str:
    """Swedish's genitive of a name ending in s, x or z takes no s ("Lars hand", not "Larss
    hand"): ``{player}s`` in ``text`` loses its s for such a value (common.js: ``fill``).

    >>> genitive("{player}s hand", {"player": "Lars"}), genitive("{player}s hand", {"player": "Bo"})
    ('{player} hand', '{player}s hand')
    """
    for k, v in params.items():
        if isinstance(v, str) and v[-1:].lower() in ("s", "x", "z"):
            text = re.sub(r"\{" + re.escape(k) + r"\}s\b", "{" + k + "}", text)
    return text


def trn(singular: str, plural: str, n: int, lang: str, **params: Any) -> str:
    out = translations(lang_of(lang)).ngettext(singular, plural, n)
    return out.format(n=n, **params)


@functools.cache
def catalogue(lang: str) -> dict[str, Any]:
    """``{"lang", "messages": {msgid: text or [singular, plural]}}`` for the pages."""
    lang = lang_of(lang)
    messages: dict[str, Any] = {}
    t = translations(lang)
    for key, text in getattr(t, "_catalog", {}).items():
        if isinstance(key, tuple):  # (msgid, n) of a plural; the msgid is the singular
            messages.setdefault(key[0], [None, None])[min(key[1], 1)] = text
        elif key:
            messages[key] = text
    return {"lang": lang, "messages": messages}


ROLE_NAMES = {
    "tl": N_("TL"),
    "revisor": N_("Revisor"),
    "dealer": N_("Dealer"),
    "public": N_("Scoreboard"),
    "broadcast": N_("Broadcast"),
}

# An alert's kind as the pages label it (common.js: ALERT_KINDS): the hub's TL screen and the
# console's doctor say the same words
ALERT_LABELS = {
    "rejected": N_("rejected"),
    "camera_offline": N_("camera offline"),
    "overtime": N_("overtime"),
    "tl_called": N_("TL called"),
    "engine_failed": N_("not judged"),
    "log_failed": N_("log not written"),
}

# Who entered what a refusal is about, and what it was, in words (a rejected entry's alert:
# "Revisor: kort spelat: ..."), as the pages name them (common.js:
# ACTION_NAMES); a code without a name stays as it is.
SOURCE_NAMES = {**ROLE_NAMES, "players": N_("the players' phones"), "clock": N_("the clock")}
ACTION_WORDS = {
    "table": N_("new table (players)"),
    "game": N_("new game (seats, button)"),
    "deal": N_("deal (cards)"),
    "discard": N_("exchange: cards placed"),
    "open": N_("open card"),
    "receive": N_("exchange: cards received"),
    "quads": N_("four of a kind: choice"),
    "chicago": N_("Chicago answer"),
    "play": N_("card played"),
    "retract": N_("card taken back"),
    "timeout": N_("time is up"),
    "time_call": N_("time called"),
    "penalty": N_("penalty"),
    "adjust": N_("score correction"),
}


def seat_number(name: str) -> str | None:
    """The seat's number of a seat's name ("seat2": its phone, its pad), else None."""
    return name[4] if len(name) == 5 and name.startswith("seat") and name[4].isdigit() else None


def source_words(source: str, lang: str) -> str:
    """Who entered something (a role, a seat's phone, the players' phones, the clock) in ``lang``."""
    if seat_number(source):
        return tr(N_("Seat {n}"), lang, n=seat_number(source))
    return tr(SOURCE_NAMES[source], lang) if source in SOURCE_NAMES else source


def action_words(do: str, lang: str) -> str:
    """An action's ``do`` in ``lang``'s words."""
    return tr(ACTION_WORDS[do], lang) if do in ACTION_WORDS else do


# --- the engine's reasons (English sentences with names and cards in them) ---------------

REASONS = (
    N_("no game is in progress: start one with 'game'"),
    N_("game {n} is over: a deal or a game to sit out is one still to be played (r33)"),
    N_("no deal is in progress: the next action is 'deal'"),
    N_("{player} does not play in this game"),
    N_("{player} is not in this deal (out, sitting out or folded)"),
    N_("the table has already started"),
    N_("the table is over"),
    N_("game {n} is still in progress"),
    N_("a table plays {n} games (r2)"),
    N_("deal {n} is still in progress ({phase})"),
    N_("no exchange now: the deal is at {phase}"),
    N_("{player} has already placed for exchange {n}; placed cards cannot be taken back (r18)"),
    N_("{n} cards placed; at most {limit} (r12)"),
    N_("draw stop: {player} has {score} points and may not exchange (D5, köpstopp at {limit})"),
    N_("every player places before any replacement (r13); waiting for {players}"),
    N_("{player} is not asked for a four-of-a-kind choice now"),
    N_("{player} holds no four of a kind that may zero now (r28)"),
    N_("{player} has already placed; no exchange clock runs"),
    N_("{player} is not being asked the Chicago question"),
    N_("{player} is not choosing for a four of a kind"),
    N_("it is not {player}'s turn to play"),
    N_("the trick is complete; call time on the next player to act"),
    N_("an adjustment of 0 points changes nothing"),
    N_("{player} has {score} points; Chicago needs at least {limit} (r20)"),
    N_("no Chicago question now: the deal is at {phase}"),
    N_("the Revisor asks in turn (r22): {next} answers next, not {player}"),
    N_("no trick play now: the deal is at {phase}"),
    N_("{player}'s hand is dead (r26) and plays no further cards"),
    N_("out of turn: {next} plays next, not {player} (r25)"),
    N_("{card} is not in {player}'s hand"),
    N_("{player} did not play the last card; only that card can be taken back"),
    N_("only a revoke can be taken back, before the next card is played (r26)"),
    N_("the first action must be 'table'"),
    N_("{n} players; {ruleset} plays {least}-{most} (r1)"),
    N_("seats must name each player once: the särspel is between {players}"),
    N_("seats must name each player once: the table's players are {players}"),
    N_("the button must be at one of the seats, not {player}"),
    N_("hands for players not in this game: {players}"),
    N_("no hand dealt to {players}"),
    N_("no hand is dealt to {players}: out of this game (r21, r33)"),
    N_("{player} was dealt {n} cards; a hand is 5 (r12)"),
    N_("card seen twice: {card} dealt to {first} and {player}"),
    N_("card seen twice: {card} is in {player}'s hand"),
    N_("card seen twice: {card} is in the discards"),
    N_("card seen twice: {card} was flashed; it is put aside until the exchange ends (r15)"),
    N_("card seen twice: {card} has already been dealt"),
    N_("{cards} not in {player}'s hand"),
    N_("a penalty of {points} points: at most {limit} either way (the table option tl_points_limit)"),
    N_("an adjustment of {points} points: at most {limit} either way (the table option tl_points_limit)"),
    N_("a points penalty deducts at least 1 point"),
    N_(
        "the trick play of deal {n} ended when the Chicago was broken (D8): no more cards are played; "
        "the next action is 'deal'"
    ),
)
# A reason's phase ("deal 2 is still in progress (exchange_1)") in words, as the pages name
# it (common.js: PHASES), and the word a card a role may not see stands for (views.refusals).
PHASE_NAMES = {
    "game_start": N_("seat draw"),
    "deal": N_("dealing"),
    "exchange_1": N_("exchange 1"),
    "exchange_2": N_("exchange 2"),
    "exchange_3": N_("exchange 3"),
    "quads_choice": N_("four of a kind: choice"),
    "chicago": N_("Chicago question"),
    "tricks": N_("trick play"),
    "game_over": N_("game over"),
    "table_over": N_("table over"),
}
HIDDEN_CARD = N_("(card)")  # views.refusals.CARD_WORD


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(rx + r"\Z")


def patterns(templates: Iterable[str]) -> list[tuple[str, re.Pattern[str]]]:
    """Catalogue sentences with ``{names}`` in them, each with the pattern that finds its
    names again in a sentence made from it (for ``tr_made``)."""
    return [(t, _pattern(t)) for t in templates]


_PATTERNS = patterns(REASONS)
_DIGITS = {word: str(n) for n, word in enumerate(COUNT_WORDS)}


def tr_made(text: str, lang: str, made_from: list[tuple[str, re.Pattern[str]]]) -> str:
    """A sentence made in English from one of ``made_from``'s templates (``patterns``),
    in ``lang``: the catalogue's sentence with the names put back; a sentence none of them
    made stays as it is, or is the catalogue's whole."""
    if lang_of(lang) == "en":
        return text
    for template, rx in made_from:
        m = rx.match(text)
        if m:
            return tr(template, lang, **{k: _name(k, v, lang) for k, v in m.groupdict().items()})
    return tr(text, lang)


def _name(key: str, value: str, lang: str) -> str:
    """A name put back into a sentence: a count the engine writes in English words ("five
    cards placed") as digits, a phase in words, a hidden card as ``lang``'s word for one."""
    if key == "phase" and value in PHASE_NAMES:
        return tr(PHASE_NAMES[value], lang)
    return _DIGITS.get(value, value).replace(HIDDEN_CARD, tr(HIDDEN_CARD, lang))


@functools.cache
def _hub_made() -> list[tuple[str, re.Pattern[str]]]:
    from table_controller.tournament import texts

    return patterns(texts.PROBLEMS + texts.CONFLICTS)


def tr_hub(text: str, lang: str) -> str:
    """A table's problem or a conflict the hub keeps in English (``tournament.texts``) in
    ``lang``, the names put back: the TL's event screen and the hub's console say it so."""
    return tr_made(text, lang, _hub_made())


def tr_reason(reason: str, lang: str) -> str:
    """An engine reason in ``lang``: the catalogue's sentence with the names and cards put
    back; a reason the catalogue lacks stays as the engine said it."""
    return tr_made(reason, lang, _PATTERNS)


def tr_error(exc: BaseException, lang: str) -> str:
    """A ``DashboardError``'s text in ``lang`` (its msgid and params), else the reason."""
    msgid = getattr(exc, "msgid", None)
    if msgid:
        params = dict(getattr(exc, "params", {}))
        for k in ("reason", "what"):  # a reason of the engine's, a catalogue text
            if isinstance(params.get(k), str):
                params[k] = tr_reason(params[k], lang)
        if params.get("role") in ROLE_NAMES:
            params["role"] = tr(ROLE_NAMES[params["role"]], lang)
        return tr(msgid, lang, **params)
    return tr_reason(str(exc), lang)
