"""The tournament: many tables, one hub, over an MQTT broker (issue 20).

Each table publishes its own SQLite log by sequence number (``publisher``); the hub
(``service``, ``hubstore``) keeps a checked copy of every log and the tournament itself
(``event``, ``draw``), and folds the copies with the rules engine into live standings
(``standings``).  Topics and payloads: ``TOPICS.md`` (protocol version 2, ``topics``).

Layers: above the store and the rules (it reads logs and folds events), beside the
dashboard; the live table never imports it.  May import the rules, the store and
sensing's alert type (the standings show a table's open alerts card-free, as the table's
own views do: ``sensing.alerts``); never the rest of sensing, the live loop, the
dashboard, the hardware, the simulation or the app.
"""
