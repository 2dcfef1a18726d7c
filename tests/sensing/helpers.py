from __future__ import annotations

from table_controller.actions import Action


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


def assert_same_game(played, live, shadow) -> None:
    sensed = [norm(a) for _, a in live.accepted]
    direct = [norm(a) for a in played]
    for i, (x, y) in enumerate(zip(sensed, direct)):
        assert x == y, f"action {i}: sensed {x} but the table played {y}"
    assert len(sensed) == len(direct)
    assert _sorted_state(live.engine) == _sorted_state(shadow)
