"""The rules of Chicago (RULES.md): cards, actions, events, hands, rulesets, the state fold
and the engine that judges actions and decides events.

Pure: no I/O, clock or randomness.  Imports only the standard library and itself; every
other part of the controller (sensing, store, views, simulation, dashboard) imports the
rules, never the other way round.
"""
