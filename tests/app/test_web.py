"""The web server's settings (table_controller/app/web.py)."""

import argparse

from table_controller.app.web import uvicorn_config


def test_streams_take_only_small_messages_and_are_not_compressed_per_message():
    """A state is a few kB on the venue's LAN: per-message deflate cost the server about
    15 % of its CPU with five streams at a fast table (issue 15), and a client of ours sends
    only pings, so a large message is refused."""
    cfg = uvicorn_config(lambda *a: None, argparse.Namespace(certfile=None, keyfile=None), "127.0.0.1", 8080)
    assert cfg.ws_per_message_deflate is False
    assert cfg.ws_max_size == 4096 and cfg.server_header is False
