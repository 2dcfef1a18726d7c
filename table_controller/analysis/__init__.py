"""Analysis for commentators and viewers (issue 21): pure functions over the rules' state.

What lives here:

- ``solver``: a double-dummy solver of the trick play (RULES.md §6-7): with every hand
  known and best play by everyone, does the Chicago stand or who breaks it, who takes the
  last trick and with which card, and what each legal card is worth to the player to act.
- ``odds``: Monte Carlo estimates during the exchanges (chance to score at the next
  scoring moment, to hold the best hand after the last exchange, of a Chicago that
  stands), with the sample count and a Wilson interval; randomness is an argument.
- ``timeline``: the verdicts, odds and blunders along a replayed action script
  (``chicago-table analyse``).
- ``overlay``: the analysis of a table's current moment with overlay texts (Swedish
  first), the entry point for a broadcast hook (which must hold it back like hidden cards).

What it may import: only the rules (``table_controller.rules``: cards, hands, rulesets,
state, and engine/actions/replay for replaying scripts).
Never the dashboard, hardware, store or live packages: the analysis is computed from
state, has no I/O, clock or randomness of its own, and knows nothing of who may see it
(its results contain hidden cards; the broadcast delay is the caller's job).
"""

from .solver import AnalysisError, Move, Position, Verdict, position_from_deal, solve, trick_order

__all__ = ["AnalysisError", "Move", "Position", "Verdict", "position_from_deal", "solve", "trick_order"]
