"""The web server's settings (table_controller/app/web.py)."""

import argparse
import re
from pathlib import Path

import pytest

from dashboard.deps import WebSettings
from dashboard.errors import DashboardError
from table_controller.app.web import add_web_arguments, uvicorn_config, web_settings

COMMON_JS = Path(__file__).resolve().parents[2] / "dashboard" / "static" / "common.js"


def test_streams_take_only_small_messages_and_are_not_compressed_per_message():
    """A state is a few kB on the venue's LAN: per-message deflate cost the server about
    15 % of its CPU with five streams at a fast table (issue 15), and a client of ours sends
    only pings, so a large message is refused."""
    cfg = uvicorn_config(lambda *a: None, argparse.Namespace(certfile=None, keyfile=None), "127.0.0.1", 8080)
    assert cfg.ws_per_message_deflate is False
    assert cfg.ws_max_size == 4096 and cfg.server_header is False


def _web_args(**kw) -> argparse.Namespace:
    base = dict(certfile=None, keyfile=None, allow_origin=[], max_points=200, post_rate=20.0, send_rate=20.0)
    return argparse.Namespace(**{**base, **kw})


def test_send_rate_is_ten_states_a_second_as_a_page_draws_and_a_bad_one_is_refused_with_its_range():
    """--send-rate: states a second to one view at most (the newest); 0 sends every state.
    By default as many as a page draws (common.js's DRAW_GAP of 100 ms): a state sent more
    often would never be drawn."""
    parser = argparse.ArgumentParser()
    add_web_arguments(parser)
    assert parser.parse_args([]).send_rate == 10.0
    draw_gap = re.search(r"const DRAW_GAP = (\d+);", COMMON_JS.read_text(encoding="utf-8"))
    assert draw_gap and 1000 / int(draw_gap[1]) == 10.0
    assert WebSettings().send_rate == 10.0
    assert web_settings(_web_args(), ()).send_rate == 20.0
    assert web_settings(_web_args(send_rate=0.0), ()).send_rate == 0.0
    for bad in (-1.0, 20_000.0):
        with pytest.raises(DashboardError, match="--send-rate måste ligga mellan 0"):
            web_settings(_web_args(send_rate=bad), ())
