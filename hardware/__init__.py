"""hardware: the seat controller's protocol, firmware, deployment files and the
virtual table that simulates it (see README.md and PROTOCOL.md here).

``firmware/`` runs on the Pico under MicroPython and imports nothing of the project.
``virtual/`` simulates the table around that firmware; it may import the bridge's
transports and the table's virtual deck (``table_controller.deck``, with the rules'
cards), never the controller's sensing, store, live loop, dashboard or app.  Only the
simulation (``table_controller.sim``) and the app import this package.
"""
