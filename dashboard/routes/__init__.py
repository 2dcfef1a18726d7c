"""The dashboard's routes, one small module per concern; ``dashboard.app`` includes them.

- ``pages``: the view pages and their scripts (every role, its own views)
- ``posts``: actions, corrections, pause/resume, reveal/hide, alerts (TL, Revisor)
- ``tl``: the TL's history, audit trail and hall list
- ``scoresheet``: the score sheet ("protocol" to the users and in the URLs) as HTML
  fragment and PDF (TL, Revisor, public)
- ``stream``: the WebSocket of each role

May import the rest of ``dashboard`` and the views; never the hardware, the simulation
or the app.
"""
