"""Alerts of the table's own (not sensing's): a rejected entry, the dealer's call for the
TL, an overtime.  Their texts are made card-free here, once, when they are built: a rule's
reason may name a card (``redact``)."""

from __future__ import annotations

from table_controller.sensing.alerts import Alert

from .redact import without_cards


def table_alert(
    alert_id: int,
    kind: str,
    text: str,
    seq: int,
    *,
    resolved: bool = False,
    text_sv: str | None = None,
    blind_text: str | None = None,
    blind_sv: str | None = None,
    source: str | None = None,
) -> Alert:
    """``text``/``text_sv``: what the TL is shown; ``blind_*``: the Revisor's, when the
    reason may tell where a card is."""
    return Alert(
        alert_id,
        kind,
        without_cards(text),
        origin="table",
        seq=seq,
        resolved=resolved,
        text_sv=without_cards(text_sv or text, "(kort)"),
        blind_text=None if blind_text is None else without_cards(blind_text),
        blind_sv=None if blind_text is None else without_cards(blind_sv or blind_text, "(kort)"),
        source=source,
    )
