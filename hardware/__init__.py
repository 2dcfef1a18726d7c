"""hardware: the seat controller's protocol, firmware, deployment files and the
virtual table that simulates it (see README.md and PROTOCOL.md here)."""
