"""What every browser test module shares: its own server on a free port, and one Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright
from web_helpers import ARGS, CHROMIUM, serve


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `boardroom serve` for the module, on its own data folder."""
    with serve(tmp_path_factory.mktemp("web-data")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, once per module."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()
