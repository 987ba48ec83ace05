"""The web client checks, in test mode, every message it receives against the served schema:
a whole hand draws no violation, and a message off the schema is caught and reported."""

from __future__ import annotations

from web_helpers import DESKTOP, create_room, person, sit
from wire_helpers import CheckedBrowser


def test_the_client_checks_every_message_and_catches_one_off_the_schema(
        browser: CheckedBrowser, base: str) -> None:
    ann = person(browser, "Ann", DESKTOP)  # type: ignore[arg-type]
    try:
        page = ann.page
        create_room(page, base, "plo")
        sit(page, 0, "Ann")
        page.wait_for_function("window.boardroom && window.boardroom.snapshot")
        page.wait_for_function("typeof window.boardroomWireCheck === 'function'")
        assert browser.violations() == []  # the join, the sit and their updates passed
        page.evaluate("""() => {
          window.boardroomWireCheck('update', {room: 'r', version: 1, view: {},
            events: [{room: 'r', version: 1, kind: 'jackpot', at: 1, data: {}}]});
          window.boardroomWireCheck('telegram', {});
        }""")
        page.wait_for_function("window.boardroomWireViolations.length >= 2")
        found = browser.violations()
        assert any(line.startswith("update:") and "jackpot" in line for line in found), found
        assert "the schema lists no message telegram" in found
    finally:
        ann.context.close()
