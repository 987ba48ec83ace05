"""The host's bot controls in the browser: `boardroom play` prints a host link, the link makes
this browser the host, and the host panel adds a bot of the chosen style and removes it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, expect
from web_helpers import DESKTOP, get_json

from processes import Output, stopped


def test_host_link_and_the_add_and_remove_bot_controls(browser: Browser, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "boardroom", "play", "--port", "0", "--data",
               str(tmp_path), "--no-browser", "--bots", "1", "--bot-think", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as process:
        try:
            text = Output(process).first(4)
            match = re.search(r"Host link .*: (http://127\.0\.0\.1:(\d+)/\?room=(\w+)#host=\S+)",
                              text)
            assert match, text
            host_link, port, room = match.group(1), int(match.group(2)), match.group(3)
            context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
            try:
                page = context.new_page()
                page.goto(host_link)
                page.get_by_role("button", name="Host", exact=True).click()
                assert "#host" not in page.url  # the secret leaves the address bar
                panel = page.get_by_role("dialog", name="Host controls")
                expect(panel.locator(".host-seat")).to_have_count(1)
                expect(panel.locator(".host-seat")).to_contain_text("tight bot")
                panel.get_by_label("Bot style").select_option("station")
                panel.get_by_role("button", name="Add bot").click()
                expect(panel.locator(".host-seat")).to_have_count(2)
                expect(panel.locator(".host-seat").nth(1)).to_contain_text(
                    "Station Bot 1")
                expect(panel.locator(".host-seat").nth(1)).to_contain_text("station bot")
                info = get_json(f"http://127.0.0.1:{port}/api/rooms/{room}")
                assert [s["name"] for s in info["table"]["seats"] if not s["empty"]] == [
                    "Tight Bot 1", "Station Bot 1"]
                assert info["bots"] == {"0": "tight", "1": "station"}
                # Everybody at the table sees which seats are bots.
                expect(page.get_by_label("station bot", exact=True)).to_have_count(1)
                expect(page.locator(".seat .bot-tag")).to_have_count(2)
                panel.get_by_role("button", name="Remove bot Station Bot 1").click()
                expect(panel.locator(".host-seat")).to_have_count(1, timeout=20000)
                expect(panel.get_by_role("button", name="Kick Tight Bot 1")).to_have_count(0)
            finally:
                context.close()
        finally:
            process.terminate()
            stopped(process)
