"""Tournaments in the browser: a sit-and-go hosted from the home page's form (its structure loaded
from a TOML file), two people and seven bots played to the end, then the results page and its
CSV; and a three-table tournament of bots where a person's page follows her table's break to her
new table, with a notice. The server's bots act at once and the levels last a few hands."""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a11y_helpers import axe_violations, wait_for_announcement
from playwright.sync_api import Page, expect
from web_helpers import DESKTOP, PHONE, Person, get_json, person, serve, unnamed_controls

FAST_TOML = """name = "browser fast"
starting_stack = 300

[[levels]]
small_blind = 10
big_blind = 20
hands = 2
""" + "".join(f"""
[[levels]]
small_blind = {sb}
big_blind = {2 * sb}
hands = 2
""" for sb in (20, 40, 75, 150, 300))


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """A loaded machine loads and polls these pages slowly: 20 s for each expectation here
    (Playwright's default, 5 s, again for the other modules)."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's own server: its bots act at once."""
    with serve(tmp_path_factory.mktemp("web-tournament"), "--bot-think", "0") as url:
        yield url


def _lobby(base: str, tournament: str) -> dict[str, Any]:
    lobby: dict[str, Any] = get_json(f"{base}/api/tournaments/{tournament}")
    return lobby


def _create(http: httpx.Client, name: str, structure: dict[str, Any], bots: int, style: str,
            **options: Any) -> tuple[str, dict[str, str], str]:
    """A PLO tournament at tables of four made over HTTP, each table waiting on a person (a
    long action clock) unless told otherwise, with ``bots`` bots of ``style``: its id, the
    host secret's header and its routes' address."""
    made = http.post("/api/tournaments", json={
        "name": name, "games": ["plo"], "structure": structure, "table_size": 4,
        "action_clock": 600.0, **options})
    assert made.status_code == 201, made.text
    tournament, host = made.json()["tournament"], {"X-Host-Secret": made.json()["host_secret"]}
    url = f"/api/tournaments/{tournament}"
    added = http.post(f"{url}/bots", json={"style": style, "count": bots}, headers=host)
    assert added.status_code == 201, added.text
    return tournament, host, url


def _create_from_the_form(page: Page) -> str:
    """Press the home page's Create tournament: the lobby it goes to, and its id."""
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(re.compile(r".*\?tournament=\w+"))
    match = re.search(r"tournament=(\w+)", page.url)
    assert match is not None
    return match.group(1)


def _act(page: Page, *names: str) -> bool:
    """Press the first of these action buttons that is on ``page``; whether one was."""
    for name in names:
        button = page.locator(f".action-bar button.act.{name}").first
        try:
            if button.count() and button.is_enabled(timeout=500):
                button.click(timeout=1000)
                return True
        except Exception:  # the turn passed (a clock, a refresh): the caller tries again
            return False
    return False


def _play_until(done: Callable[[], object], *pages: Page, seconds: float = 60,
                actions: tuple[str, ...] = ("fold", "check")) -> None:
    """Each of ``pages`` presses the first of ``actions`` it is offered, until ``done()`` (or
    ``seconds`` have passed: the caller's expectation then says what did not happen)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        for page in pages:
            _act(page, *actions)
        time.sleep(0.2)


def _enter(someone: Person, name: str) -> None:
    someone.page.get_by_label("Your name").fill(name)
    someone.page.get_by_role("button", name="Enter", exact=True).click()
    expect(someone.page.get_by_test_id("tournament-you")).to_contain_text("registered")


def test_a_sit_and_go_of_two_people_and_seven_bots_to_the_end(
        browser: Any, base: str, tmp_path: Path) -> None:
    structure = tmp_path / "fast.toml"
    structure.write_text(FAST_TOML)
    ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
    try:
        page = ann.page
        page.goto(base + "/")
        page.get_by_label("Tournament name").fill("Friday SNG")
        page.get_by_label("Tournament game").select_option("holdem")
        page.get_by_label("Load a structure file").set_input_files(str(structure))
        expect(page.get_by_label("Structure name")).to_have_value("browser fast")
        expect(page.get_by_label("Level 6: big blind")).to_have_value("600")
        with page.expect_download() as saved:
            page.get_by_role("button", name="Save as TOML").click()
        assert Path(saved.value.path()).read_text().startswith('name = "browser fast"')
        page.get_by_label("Level 2: big blind").fill("5")  # below level 1's: refused, by name
        page.get_by_role("button", name="Save as TOML").click()
        expect(page.get_by_role("alert")).to_contain_text("level 2")
        page.get_by_label("Level 2: big blind").fill("40")
        found = axe_violations(page, "home, the tournament form with its levels")
        page.get_by_label("Seats per table").fill("9")
        page.get_by_label("Tournament action clock").fill("5")
        page.get_by_label("Bots to fill").fill("7")
        page.get_by_label("Bot style for the field").select_option("loose")
        tournament = _create_from_the_form(page)
        expect(page.get_by_test_id("tournament-entrants")).to_have_text("7")
        link = page.get_by_label("Lobby link").input_value()
        assert link.endswith(f"/?tournament={tournament}")
        _enter(ann, "Ann")
        bob.page.goto(link)  # Bob enters through the link, on a phone
        expect(bob.page.get_by_role("heading", name="Friday SNG")).to_be_visible()
        assert not bob.page.get_by_role("button", name="Start").count()  # not the host
        _enter(bob, "Bob")
        _, unnamed = unnamed_controls(bob.page)
        assert not unnamed, unnamed
        found += axe_violations(bob.page, "lobby, phone")
        bob.page.screenshot(path=str(Path(__file__).parent / "screenshots"
                                     / "tournament-lobby-phone.png"), full_page=True)
        page.get_by_role("button", name="Start").click()
        expect(page.get_by_test_id("tournament-status")).to_have_text("Running")
        expect(page.get_by_test_id("tournament-said")).to_contain_text("has started")
        expect(page.get_by_test_id("tournament-blinds")).to_have_text("Blinds 10/20")
        expect(page.get_by_test_id("tournament-left")).to_have_text("9")
        expect(page.get_by_role("link", name="Watch table 1")).to_be_visible()
        for someone in (ann, bob):
            someone.page.get_by_role("link", name="Go to your table").click()
            someone.page.locator(".seat.mine").wait_for()
        # Both call or check whatever comes, until the tournament is over.
        deadline = time.monotonic() + 420
        lobby = _lobby(base, tournament)
        while not lobby["finished"] and time.monotonic() < deadline:
            for someone in (ann, bob):
                _act(someone.page, "check", "call")
            lobby = _lobby(base, tournament)
            assert lobby["chips"] == 9 * 300
        assert lobby["finished"], lobby
        for someone in (ann, bob):
            notice = someone.page.get_by_test_id("tournament-notice")
            expect(notice).to_contain_text(re.compile(
                r"You (finished \d+(st|nd|rd|th)|won the tournament)"))
        place = {p["name"]: p for p in lobby["players"]}
        places = sorted(p["place"] for p in lobby["players"])  # players out in one hand with
        assert len(places) == 9  # equal stacks tie (TDA)
        assert places.count(1) == 1
        assert sum(p["prize"] or 0 for p in lobby["players"]) == lobby["prize_pool"] == 900
        # The lobby says who won what; the results page lists every place and offers the CSV.
        page.goto(f"{base}/?tournament={tournament}")
        expect(page.get_by_test_id("tournament-status")).to_have_text("Finished")
        page.get_by_role("link", name="Results").click()
        rows = page.get_by_test_id("tournament-results").locator("tbody tr")
        expect(rows).to_have_count(9)
        first = rows.first
        winner = next(p for p in lobby["players"] if p["place"] == 1)
        expect(first).to_contain_text(winner["name"])
        expect(first).to_contain_text(f"{winner['prize']:,}")
        for name in ("Ann", "Bob"):  # each person's row says their place (tied or not)
            row = rows.filter(has=page.get_by_role("rowheader", name=name, exact=True))
            expect(row).to_contain_text(re.compile(rf"^{place[name]['place']}(st|nd|rd|th)"))
        found += axe_violations(page, "results, desktop")
        assert not found, found
        csv_link = page.get_by_role("link", name="Download CSV")
        assert csv_link.get_attribute("href") == f"/api/tournaments/{tournament}/results.csv"
        with page.expect_download() as download:
            csv_link.click()
        text = Path(download.value.path()).read_text()
        table = list(csv.DictReader(io.StringIO(text)))
        assert [int(r["place"]) for r in table] == places
        assert sum(int(r["prize"]) for r in table) == 900
        assert not [f for f in ann.frames + bob.frames if f.startswith("PAGEERROR")]
    finally:
        ann.context.close()
        bob.context.close()


CAPPED = {"name": "capped", "starting_stack": 2000, "late_registration_levels": 1,
          "levels": [{"small_blind": sb, "big_blind": 2 * sb, "ante": ante, "hands": 4}
                     for sb, ante in ((10, 0), (20, 0), (40, 5), (80, 10), (150, 25))]}


def test_a_persons_page_follows_her_table_break_with_a_notice(browser: Any, base: str) -> None:
    """As in the server's test: eight bots fill two tables of four while the tournament is
    paused, so Ann's late entry opens table 3, the first to break; her table waits on her (a
    long action clock) until a bot is out, so she cannot bust first, whatever the timing."""
    with httpx.Client(base_url=base, timeout=30) as http:
        tournament, host, url = _create(http, "Three tables", CAPPED, 8, "loose")
        http.post(f"{url}/pause", headers=host)
        http.post(f"{url}/start", headers=host)
        ann = person(browser, "Ann", PHONE)
        try:
            page = ann.page
            page.goto(base + f"/?tournament={tournament}")
            expect(page.get_by_test_id("tournament-status")).to_have_text("Paused")
            _enter_late(ann)
            expect(page.get_by_test_id("tournament-you")).to_contain_text("Table 3")
            page.get_by_role("link", name="Go to your table").click()
            page.locator(".seat.mine").wait_for()
            first_room = re.search(r"room=(\w+)", page.url)
            assert first_room is not None
            http.post(f"{url}/resume", headers=host)
            deadline = time.monotonic() + 120
            while _lobby(base, tournament)["left"] == 9 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert _lobby(base, tournament)["left"] < 9, "no bot busted"
            notice = page.get_by_test_id("tournament-notice")
            assert not notice.count()
            _play_until(notice.count, page)
            # The break's notice; or, when a second bot busted meanwhile and the balancing
            # moved her on from the table the break sent her to, the notice that replaced it.
            expect(notice).to_contain_text(re.compile(
                r"(Table 3 broke|The tables were balanced \(from table [12]\)): "
                r"you are now at table [12]\."))
            page.wait_for_url(lambda url: "room=" in url and first_room.group(1) not in url)
            page.locator(".seat.mine").wait_for()
            expect(page.locator(".seat.mine")).to_contain_text("Ann")
            found = axe_violations(page, "a tournament table with its notice, phone")
            assert not found, found
            where = _lobby(base, tournament)
            ann_now = next(p for p in where["players"] if p["name"] == "Ann")
            assert ann_now["table"] in (1, 2)
            room = next(t["room"] for t in where["tables"] if t["table"] == ann_now["table"])
            assert f"room={room}" in page.url
            page.get_by_role("link", name="Tournament lobby").click()
            expect(page.get_by_test_id("tournament-you")).to_contain_text(
                f"Table {ann_now['table']}")
        finally:
            ann.context.close()
            http.post(f"{url}/pause", headers=host)


def _enter_from_the_lobby(someone: Person, base: str, tournament: str) -> None:
    someone.page.goto(base + f"/?tournament={tournament}")
    _enter(someone, someone.name)


def _enter_late(ann: Person) -> None:
    ann.page.get_by_label("Your name").fill("Ann")
    ann.page.get_by_role("button", name="Enter", exact=True).click()


def test_the_host_approves_one_entry_and_declines_another_in_the_lobby(
        browser: Any, base: str) -> None:
    host, bob, cat = (person(browser, "Host", DESKTOP), person(browser, "Bob", PHONE),
                      person(browser, "Cat", DESKTOP))
    try:
        page = host.page
        page.goto(base + "/")
        page.get_by_label("Tournament name").fill("Invitational")
        page.get_by_label("Approve each entry").check()
        page.get_by_label("Bots to fill").fill("2")
        tournament = _create_from_the_form(page)
        expect(page.get_by_test_id("tournament-entrants")).to_have_text("2")
        expect(page.get_by_text("No entry is waiting for your approval.")).to_be_visible()
        link = page.get_by_label("Lobby link").input_value()
        for someone, name in ((bob, "Bob"), (cat, "Cat")):
            someone.page.goto(link)
            someone.page.get_by_label("Your name").fill(name)
            someone.page.get_by_role("button", name="Enter", exact=True).click()
            expect(someone.page.get_by_test_id("tournament-you")).to_have_text(
                "Your entry is waiting for the host's approval.")
        waiting = page.get_by_test_id("tournament-waiting")
        expect(waiting).to_have_count(2)
        found = axe_violations(page, "lobby, the host's entries waiting for approval")
        assert not found, found
        expect(page.get_by_test_id("tournament-entrants")).to_have_text("2")  # not yet in
        page.get_by_role("button", name="Approve Bob").click()
        page.get_by_role("button", name="Decline Cat").click()
        expect(waiting).to_have_count(0)
        expect(page.get_by_test_id("tournament-entrants")).to_have_text("3")
        expect(bob.page.get_by_test_id("tournament-you")).to_contain_text("You are registered")
        expect(cat.page.get_by_test_id("tournament-you")).to_have_text(
            "Your entry was not accepted: the host declined this entry.")
        lobby = _lobby(base, tournament)
        assert (lobby["entrants"], lobby["waiting"]) == (3, 0)
        assert lobby["prize_pool"] == 3 * lobby["buy_in"]  # Cat paid nothing
        assert sorted(p["name"] for p in lobby["players"] if not p["bot"]) == ["Bob"]
        assert not [f for f in host.frames + bob.frames + cat.frames
                    if f.startswith("PAGEERROR")]
    finally:
        for someone in (host, bob, cat):
            someone.context.close()


# Blinds of 1/2 against stacks of 1,000 (calling stations, who never bet, cannot bust there in
# any number of hands a test plays), then 300/600: the stations call every big blind, so each
# hand leaves its losers with less than the next big blind, all in when they call it, and a
# table of stations busts down in a few hands; a person with her 1,000 chips still has chips
# behind a big blind she posts, so her table waits on her turn.
SCRIPTED = {"name": "scripted busts", "starting_stack": 1000, "late_registration_levels": 0,
            "levels": [{"small_blind": 1, "big_blind": 2, "minutes": 10},
                       {"small_blind": 300, "big_blind": 600, "minutes": 10}]}

# Whether Ann posts the big blind next at her table (its next player clockwise after this
# hand's big blind, seats numbered clockwise), from what her page shows.
NEXT_BIG_BLIND_IS_MINE = """() => {
  const seats = [...document.querySelectorAll('.seat[data-seat]')];
  const taken = seats.filter((s) => !s.classList.contains('empty'))
    .map((s) => Number(s.dataset.seat));
  const big = seats.find((s) => s.querySelector('.blind.big'));
  const mine = document.querySelector('.seat.mine');
  if (!big || !mine || taken.length < 3) return false;
  const bb = Number(big.dataset.seat);
  const after = taken.filter((s) => s > bb).concat(taken.filter((s) => s < bb));
  return after[0] === Number(mine.dataset.seat);
}"""


def test_a_persons_page_follows_a_balancing_move_with_a_notice(browser: Any, base: str) -> None:
    """Ann and seven calling stations at two tables of four, the busts scripted by the
    structure: at 1/2 nobody bets, so nobody busts. Ann folds (or checks) until she is the
    next big blind, then holds her turn (a long action clock), so her table waits on her with
    its four players. The host ends level 1: at 300/600 the other table busts down to one or
    two players. Ann folds: her table, between hands, is the long one, and the player who
    would be big blind next, Ann, moves to the short table (TDA); her page follows her there
    with the notice. (Two places paid: no hand-for-hand at five or six players left.)"""
    with httpx.Client(base_url=base, timeout=30) as http:
        tournament, host, url = _create(http, "Balancing", SCRIPTED, 7, "station", payouts=[65, 35])
        ann = person(browser, "Ann", DESKTOP)
        try:
            page = ann.page
            _enter_from_the_lobby(ann, base, tournament)
            http.post(f"{url}/start", headers=host)
            expect(page.get_by_test_id("tournament-you")).to_contain_text("Table")
            page.get_by_role("link", name="Go to your table").click()
            page.locator(".seat.mine").wait_for()
            first_room = re.search(r"room=(\w+)", page.url)
            assert first_room is not None
            mine = next(p for p in _lobby(base, tournament)["players"]
                        if p["name"] == "Ann")["table"]
            turn = page.locator(".action-bar button.act.fold, .action-bar button.act.check")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:  # at most three hands
                if turn.first.count() and turn.first.is_enabled():
                    if page.evaluate(NEXT_BIG_BLIND_IS_MINE):
                        break
                    _act(page, "fold", "check")
                time.sleep(0.2)
            assert page.evaluate(NEXT_BIG_BLIND_IS_MINE), "Ann never was the next big blind"
            lobby = _lobby(base, tournament)
            assert {t["table"]: t["players"] for t in lobby["tables"]}[mine] == 4
            assert lobby["left"] == 8  # nobody busts at 1/2
            ended = http.post(f"{url}/add_time", json={"seconds": -600}, headers=host).json()
            assert ended["level"]["number"] == 2
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and min(
                    t["players"] for t in _lobby(base, tournament)["tables"]) > 2:
                time.sleep(0.2)
            counts = {t["table"]: t["players"] for t in _lobby(base, tournament)["tables"]}
            assert counts[mine] == 4, counts
            assert min(counts.values()) <= 2, counts
            notice = page.get_by_test_id("tournament-notice")
            _play_until(notice.count, page)
            expect(notice).to_contain_text(re.compile(
                r"The tables were balanced \(from table [12]\): you are now at table [12]\."))
            page.wait_for_url(lambda url: "room=" in url and first_room.group(1) not in url)
            page.locator(".seat.mine").wait_for()
            expect(page.locator(".seat.mine")).to_contain_text("Ann")
            lobby = _lobby(base, tournament)
            now_at = next(p for p in lobby["players"] if p["name"] == "Ann")["table"]
            assert now_at != mine
            room = next(t["room"] for t in lobby["tables"] if t["table"] == now_at)
            assert f"room={room}" in page.url
            assert lobby["chips"] == 8 * 1000
            assert not [f for f in ann.frames if f.startswith("PAGEERROR")]
        finally:
            ann.context.close()
            http.post(f"{url}/pause", headers=host)


REBUYS = {"name": "rebuys", "starting_stack": 1000, "late_registration_levels": 0,
          "rebuy_levels": 1, "rebuy_chips": 1000, "max_rebuys": 1, "addon_chips": 1500,
          "levels": [{"small_blind": 10, "big_blind": 20, "hands": 2},
                     {"small_blind": 20, "big_blind": 40, "hands": 200}]}


def test_a_rebuy_and_the_add_on_taken_in_the_lobby_each_in_its_period(
        browser: Any, base: str) -> None:
    """The lobby offers Ann a rebuy in level 1 (the rebuy period; taken at once before the
    first hand) and the add-on in level 2, asked during her hand and added when it ends (her
    table waits on her: a long action clock); her stack, the chips in play and the prize pool
    grow by each, and the lobby shows the pool."""
    with httpx.Client(base_url=base, timeout=30) as http:
        tournament, host, url = _create(http, "Rebuys", REBUYS, 3, "station")
        ann = person(browser, "Ann", PHONE)
        try:
            page = ann.page
            _enter_from_the_lobby(ann, base, tournament)
            you = page.get_by_test_id("tournament-you")
            rebuy = page.get_by_role("button", name="Rebuy (1,000 chips)")
            addon = page.get_by_role("button", name="Add-on (1,500 chips)")
            pool = page.locator(".tourney-facts div").filter(has_text="Prize pool")
            http.post(f"{url}/pause", headers=host)  # no hand is dealt until the host resumes
            http.post(f"{url}/start", headers=host)
            expect(you).to_contain_text("1,000 chips")
            expect(addon).to_have_count(0)  # not in the rebuy period
            rebuy.click()
            expect(you).to_contain_text("2,000 chips")
            expect(pool).to_have_text("Prize pool500")
            lobby = _lobby(base, tournament)
            assert (lobby["chips"], lobby["prize_pool"]) == (5000, 500)
            # Ann plays (folds) at her table until level 2, then asks for the add-on in the
            # lobby while her table waits on her.
            http.post(f"{url}/resume", headers=host)
            page.get_by_role("link", name="Go to your table").click()
            page.locator(".seat.mine").wait_for()
            _play_until(lambda: _lobby(base, tournament)["level"]["number"] >= 2, page,
                        seconds=120)
            assert _lobby(base, tournament)["level"]["number"] == 2
            page.goto(base + f"/?tournament={tournament}")
            expect(addon).to_be_visible()
            expect(rebuy).to_have_count(0)  # the rebuy period is over
            before = _lobby(base, tournament)
            addon.click()
            alerts = page.get_by_role("alert")
            expect(alerts).to_have_count(0)
            assert before["chips"] == 5000
            expect(addon).to_have_count(0)  # asked: not offered again
            queued = page.get_by_test_id("tournament-queued")
            if queued.count():  # asked during her hand: she ends it at her table
                expect(queued).to_have_text("Your add-on is added when your hand ends.")
                page.get_by_role("link", name="Go to your table").click()
                page.locator(".seat.mine").wait_for()
                _play_until(lambda: _lobby(base, tournament)["chips"] != 5000, page)
                page.goto(base + f"/?tournament={tournament}")
            after = _lobby(base, tournament)
            assert after["chips"] == 6500
            assert after["prize_pool"] == 600
            stack = next(p for p in after["players"] if p["name"] == "Ann")["stack"]
            expect(you).to_contain_text(f"{stack:,} chips")
            expect(pool).to_have_text("Prize pool600")
            expect(addon).to_have_count(0)  # one add-on per entry
            assert not [f for f in ann.frames if f.startswith("PAGEERROR")]
        finally:
            ann.context.close()
            http.post(f"{url}/pause", headers=host)


TIMED_REBUYS = {"name": "timed rebuys", "starting_stack": 1000, "late_registration_levels": 0,
                "rebuy_levels": 1, "rebuy_chips": 1000,
                "levels": [{"small_blind": 10, "big_blind": 20, "minutes": 10},
                           {"small_blind": 20, "big_blind": 40, "minutes": 10}]}


def test_a_tournament_table_shows_only_the_tournaments_controls_and_a_refused_rebuy(
        browser: Any, base: str) -> None:
    """At a tournament table (Ann on a desktop, Bob on a phone) the page offers no cash-game
    Sit out, Rebuy or Leave seat, but a link back to the lobby and the tournament's rebuy in
    its period. Ann asks for it at her turn (queued to the hand's end); the host ends the
    rebuy period before she folds, so it is refused when the hand ends: her page says why,
    and so does her lobby. Each table page's live region says that level 2 began."""
    with httpx.Client(base_url=base, timeout=30) as http:
        tournament, host, url = _create(http, "Table controls", TIMED_REBUYS, 2, "station")
        ann, bob = person(browser, "Ann", DESKTOP), person(browser, "Bob", PHONE)
        try:
            for someone in (ann, bob):
                _enter_from_the_lobby(someone, base, tournament)
            http.post(f"{url}/start", headers=host)
            for someone in (ann, bob):
                someone.page.get_by_role("link", name="Go to your table").click()
                someone.page.locator(".seat.mine").wait_for()
                page = someone.page
                expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
                for cash in ("Sit out", "Rebuy", "Leave seat", "Sit in"):
                    expect(page.get_by_role("button", name=cash, exact=True)).to_have_count(0)
                expect(page.get_by_label("Rebuy amount")).to_have_count(0)
            found = axe_violations(bob.page, "a tournament table's controls, phone")
            page = ann.page
            turn = page.locator(".action-bar button.act.fold, .action-bar button.act.check")
            _play_until(turn.count, bob.page, actions=("check", "call"))  # (it waits on Bob)
            expect(turn.first).to_be_visible()
            page.get_by_role("button", name="Rebuy (1,000 chips)").click()
            expect(page.get_by_test_id("tournament-queued")).to_have_text(
                "Your rebuy is added when your hand ends.")
            ended = http.post(f"{url}/add_time", json={"seconds": -600}, headers=host).json()
            assert ended["level"]["number"] == 2
            notice = page.get_by_test_id("tournament-notice")
            _play_until(notice.count, page, bob.page)
            expect(notice).to_have_text(re.compile(
                r"Your rebuy was not added: the rebuy period ended with level 1\."))
            expect(page.get_by_role("button", name="Rebuy (1,000 chips)")).to_have_count(0)
            for someone in (ann, bob):  # the table's live region says the level changed
                wait_for_announcement(someone.page, r"^Level 2: blinds 20/40\.$", "polite")
            found += axe_violations(page, "a tournament table with a refused rebuy, desktop")
            assert not found, found
            page.get_by_role("link", name="Back to the lobby").click()
            expect(page.get_by_test_id("tournament-refused")).to_have_text(
                "Your rebuy was not added: the rebuy period ended with level 1.")
            assert _lobby(base, tournament)["chips"] == 4 * 1000
            assert not [f for f in ann.frames + bob.frames if f.startswith("PAGEERROR")]
        finally:
            ann.context.close()
            bob.context.close()
            http.post(f"{url}/pause", headers=host)
