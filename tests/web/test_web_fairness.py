"""Fair deals in the browser: the page's own verifier (verify.js, Web Crypto) agrees with
boardroom.fairness on real and tampered histories, and the replayer's "Verify this hand" checks
a hand in the page without asking the server."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from web_helpers import PHONE, history_of_one_hand, person

sys.path.insert(0, str(Path(__file__).parent.parent / "fairness"))

from fair_hands import random_table_hands

from boardroom.fairness import FIELD, FairnessError, check_history

VERIFY = "async (histories) => { const m = await import('/js/verify.js'); " \
         "const out = []; for (const h of histories) out.push(await m.verifyHistory(h)); " \
         "return out; }"


def _tampered(history: dict[str, Any]) -> list[dict[str, Any]]:
    """The history with one card, one client seed, the server seed or the commitment changed."""
    out = []
    card_action = next(i for i, a in enumerate(history["actions"])
                       if a.startswith("d db") or (a.startswith("d dh") and "??" not in a))
    changed = json.loads(json.dumps(history))
    text = changed["actions"][card_action]
    words = text.split("#")[0].split()
    cards = words[-1]
    swapped = ("2c" if cards[:2] != "2c" else "3c") + cards[2:]
    changed["actions"][card_action] = text.replace(cards, swapped, 1)
    out.append(changed)
    for key, value in [("client_seeds", ["ab", *history[FIELD]["client_seeds"][1:]]),
                       ("server_seed", "11" * 32), ("commitment", "22" * 32)]:
        changed = json.loads(json.dumps(history))
        changed[FIELD][key] = value
        out.append(changed)
    return out


def _python(history: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"ok": True, "cards": check_history(history),
                "commitment": history[FIELD]["commitment"]}
    except FairnessError as error:
        return {"ok": False, "reason": str(error)}


def test_the_browser_and_python_verifiers_agree(browser: Browser, base: str) -> None:
    histories: list[dict[str, Any]] = []
    for game in ("plo", "esg", "allocator-redraw", "stud-hilo", "courchevel", "tilt"):
        written = random_table_hands(game, hands=2, seed=3)
        histories += written[:3]
        histories += _tampered(written[1])
    viewer = person(browser, "Auditor", PHONE)
    try:
        viewer.page.goto(base + "/")
        in_page = viewer.page.evaluate(VERIFY, histories)
    finally:
        viewer.context.close()
    expected = [_python(history) for history in histories]
    assert in_page == expected
    assert sum(result["ok"] for result in expected) == 18
    assert sum(not result["ok"] for result in expected) == 24


def test_verify_this_hand_checks_the_deal_in_the_page(browser: Browser, base: str) -> None:
    with history_of_one_hand(browser, base, ["Ann", "Ben"]) as viewer:
        page = viewer.page
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.get_by_role("button", name="Verify this hand").click()
        status = page.get_by_role("status").filter(has_text="erified")
        status.wait_for()
        text = status.inner_text()
        assert text.startswith("Verified in this browser: the seed matches the commitment"), text
        assert asked == []  # nothing asked of the server
        assert [e for e in viewer.frames if e.startswith("PAGEERROR")] == []
