from __future__ import annotations

import pytest

from .harness import Server, launch_chromium


@pytest.fixture
def make_server(tmp_path):
    servers: list[Server] = []

    def make(**kw) -> Server:
        s = Server(tmp_path / f"table{len(servers)}", **kw)
        servers.append(s)
        return s.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = launch_chromium(p)
        yield ctx
        ctx.close()


@pytest.fixture
def page(chromium):
    pg = chromium.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    yield pg
    pg.close()
