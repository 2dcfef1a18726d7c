from __future__ import annotations

from table_controller.rules.actions import Action


def norm(a: Action) -> dict:
    """An action with the cards of each field as a set: the order in which a pad's cards
    were read carries no meaning."""
    d = a.to_dict()
    if "cards" in d:
        d["cards"] = sorted(d["cards"])
    if "hands" in d:
        d["hands"] = {p: sorted(cs) for p, cs in d["hands"].items()}
    return d


def _sorted_state(engine) -> dict:
    d = engine.state.to_dict()
    d.pop("seq")  # how many events: a draw-stop player's silent "discard []" adds one

    def walk(x):
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            items = [walk(v) for v in x]
            if all(isinstance(v, str) and len(v) == 2 for v in items):
                return sorted(items)
            return items
        return x

    return walk(d)


def _placements_as_sets(actions: list[dict]) -> list:
    """Everyone places before the dealer replaces (r13): the order of the placements of
    one exchange is not something a table shows, so a run of discards is compared as a set."""
    out: list = []
    run: list = []
    for d in actions:
        if d["do"] == "discard":
            run.append(d)
            continue
        if run:
            out.append(sorted(run, key=lambda x: x["player"]))
            run = []
        out.append(d)
    if run:
        out.append(sorted(run, key=lambda x: x["player"]))
    return out


def assert_same_game(played, live, shadow) -> None:
    sensed = _placements_as_sets([norm(a) for _, a in live.accepted])
    direct = _placements_as_sets([norm(a) for a in played])
    for i, (x, y) in enumerate(zip(sensed, direct)):
        assert x == y, f"action {i}: sensed {x} but the table played {y}"
    assert len(sensed) == len(direct)
    assert _sorted_state(live.engine) == _sorted_state(shadow)
