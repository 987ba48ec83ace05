"""What every browser test module shares: its own server on a free port, and one Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import sync_playwright
from web_helpers import ARGS, CHROMIUM, serve
from wire_helpers import CheckedBrowser


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `boardroom serve` for the module, on its own data folder."""
    with serve(tmp_path_factory.mktemp("web-data")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[CheckedBrowser]:
    """Debian's Chromium, once per module; every page checks each message against the schema."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield CheckedBrowser(launched)
        finally:
            launched.close()


@pytest.fixture(autouse=True)
def wire_checked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with a browser fails if any of its pages received a message off the served
    schema (``wire_helpers``)."""
    if "browser" not in request.fixturenames:
        yield
        return
    checked: CheckedBrowser = request.getfixturevalue("browser")
    checked.violations()  # what came before this test was its predecessor's to answer for
    yield
    found = checked.violations()
    assert not found, "messages off the wire's schema:\n" + "\n".join(found[:5])
