"""Provably fair deals (docs/fairness.md): the scheme, the verifier, and the deals they check."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from fair_hands import GOLDEN, histories, play_golden, random_table_hands

from boardroom import fairness
from boardroom.cards import format_card, format_cards, parse_cards
from boardroom.cli import main
from boardroom.fairness import FIELD, FairnessError, Seeds, check_history, verify_history
from boardroom.rules import VARIANTS, find_variant

DOCS = Path(__file__).parent.parent.parent / "docs"
EXAMPLE = Seeds(bytes(range(32)), "9f2c4e6a8b1d", 7, ("c0ffee", "1234abcd", "00"))


# -- the scheme --------------------------------------------------------------------------------


def test_the_worked_example_of_the_docs_is_what_the_code_computes() -> None:
    text = (DOCS / "fairness.md").read_text()
    block = text.split("### Worked example", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    values = dict(re.findall(r"^([a-z ]+):\s+(.+)$", block, re.MULTILINE))
    seeds = Seeds(bytes.fromhex(values["server seed"]), values["room"], int(values["hand"]),
                  tuple(values["client seeds"].split()))
    assert seeds == EXAMPLE
    assert fairness.commitment(seeds.server_seed) == values["commitment"]
    first = hmac.new(seeds.server_seed, b"\x00\x00\x00\x01deck\x00" + seeds.context(),
                     hashlib.sha256).hexdigest()
    assert first == values["first block"]
    deck = fairness.deck(seeds)
    assert format_cards(deck[:12]) == values["deck"]
    assert seeds.context().decode() == (
        "boardroom-fair-v1\nroom 9f2c4e6a8b1d\nhand 7\nseeds c0ffee 1234abcd 00")
    assert "(the `As`) with position 1225626693 mod 52 = 5\n(the `3d`)" in text
    word = next(fairness.stream(seeds, "deck"))
    assert f"first word `{word:#010x}` ({word})" in text
    assert word < 2**32 - 2**32 % 52 == 4294967248
    assert f"{word} mod 52 = {word % 52}" in text
    assert format_card(word % 52) == "3d"
    assert "burned (`Th`) and the flop is `7d Ac Ts`" in text
    assert format_cards(deck[12:16]) == "Th 7d Ac Ts"


def test_the_commitment_is_sha256_of_the_server_seed() -> None:
    seed = fairness.new_server_seed()
    assert len(seed) == 32
    assert fairness.commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert fairness.new_server_seed() != seed


def test_uniform_rejects_the_words_that_would_bias_it() -> None:
    # n = 3: 2**32 % 3 == 1, so the single top word 2**32 - 1 is rejected.
    assert fairness.uniform(iter([2**32 - 1, 5]), 3) == 2
    assert fairness.uniform(iter([2**32 - 2]), 3) == (2**32 - 2) % 3
    # n = 52: the limit is 2**32 - 2**32 % 52 = 4294967248.
    assert fairness.uniform(iter([4294967248, 4294967247]), 52) == 4294967247 % 52
    with pytest.raises(StopIteration):
        fairness.uniform(iter([4294967248, 4294967295]), 52)


def test_every_seed_and_the_binding_change_the_deck() -> None:
    base = fairness.deck(EXAMPLE)
    assert sorted(base) == list(range(52))
    variants = [
        Seeds(bytes(range(1, 33)), EXAMPLE.room, EXAMPLE.hand_no, EXAMPLE.client_seeds),
        Seeds(EXAMPLE.server_seed, "other-room", EXAMPLE.hand_no, EXAMPLE.client_seeds),
        Seeds(EXAMPLE.server_seed, EXAMPLE.room, 8, EXAMPLE.client_seeds),
        Seeds(EXAMPLE.server_seed, EXAMPLE.room, 7, ("1234abcd", "c0ffee", "00")),  # order
    ]
    for k in range(len(EXAMPLE.client_seeds)):  # no client seed is ignored
        changed = list(EXAMPLE.client_seeds)
        changed[k] = changed[k][:-1] + ("1" if changed[k][-1] != "1" else "2")
        variants.append(Seeds(EXAMPLE.server_seed, EXAMPLE.room, 7, tuple(changed)))
    decks = [tuple(fairness.deck(seeds)) for seeds in variants]
    assert tuple(base) not in decks
    assert len(set(decks)) == len(decks)


def test_client_seeds_are_checked_and_named() -> None:
    assert fairness.check_client_seed(" C0FFEE ") == "c0ffee"
    for bad in ("", "xyz", "0x12", "a" * 65, 12, None):
        with pytest.raises(FairnessError, match=r"1 to 64 hex digits|a string of hex"):
            fairness.check_client_seed(bad)


def _chi_square_p(statistic: float, df: int) -> float:
    """The upper tail of chi-square (Wilson-Hilferty's normal approximation, fine for big df)."""
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / (2 / (9 * df)) ** 0.5
    return 0.5 * __import__("math").erfc(z / 2**0.5)


def _sattolo(seeds: Seeds) -> list[int]:
    """A classic wrong shuffle (j below i, never i itself): no card ever stays in place."""
    cards, words = list(range(52)), fairness.stream(seeds, "deck")
    for i in range(51, 0, -1):
        j = fairness.uniform(words, i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _position_chi_square(decks: int, label: str) -> float:
    counts = [[0] * 52 for _ in range(52)]
    for n in range(decks):
        seeds = Seeds(n.to_bytes(32, "big"), "chi", n, ("ab",))
        dealt = (fairness.deck(seeds) if label == "deck" else _sattolo(seeds)
                 if label == "sattolo" else fairness.redraw_pool(seeds, 1, range(52)))
        for position, card in enumerate(dealt):
            counts[card][position] += 1
    expected = decks / 52
    statistic = sum((c - expected) ** 2 / expected for row in counts for c in row)
    return _chi_square_p(statistic, 51 * 51)


def test_the_shuffle_puts_every_card_anywhere_evenly_quick() -> None:
    assert _position_chi_square(1500, "deck") > 1e-4
    assert _position_chi_square(1500, "sattolo") < 1e-9  # the test does catch a biased shuffle


@pytest.mark.slow
@pytest.mark.parametrize("label", ["deck", "redraw"])
def test_the_shuffle_puts_every_card_anywhere_evenly(label: str) -> None:
    assert _position_chi_square(60_000, label) > 1e-4


@pytest.mark.slow
def test_the_first_two_cards_are_every_pair_evenly() -> None:
    counts: dict[tuple[int, int], int] = {}
    decks = 120_000
    for n in range(decks):
        deck = fairness.deck(Seeds(n.to_bytes(32, "big"), "pairs", 1, ("00",)))
        counts[deck[0], deck[1]] = counts.get((deck[0], deck[1]), 0) + 1
    expected = decks / (52 * 51)
    statistic = sum((counts.get((a, b), 0) - expected) ** 2 / expected
                    for a in range(52) for b in range(52) if a != b)
    assert _chi_square_p(statistic, 52 * 51 - 1) > 1e-4


# -- verifying histories -------------------------------------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_hand_dealt_fairly_verifies_for_every_viewer(path: Path) -> None:
    hand, record = play_golden(path, random.Random(path.stem))
    public, *players = histories(hand, record)
    assert check_history(tomli_w_roundtrip(public)) == _seen(public)  # all fold: maybe none
    for written in players:  # each player checks at least its own first cards
        assert check_history(tomli_w_roundtrip(written)) == _seen(written) > 0


@pytest.mark.parametrize("variant", [v.id for v in VARIANTS])
def test_random_hands_of_every_variant_verify_for_every_viewer(variant: str) -> None:
    written = random_table_hands(variant, hands=4, seed=len(variant))
    made = [m for w in written for m in w[FIELD]["server_made"]]
    assert True in made
    assert False in made  # some seeds came from the players, some from the server
    unplaced = 0
    for history in written:
        found = verify_history(tomli_w_roundtrip(history))
        assert found.checked + found.unplaced == _seen(history)
        assert found.checked == check_history(history)
        unplaced += found.unplaced
    # Only a draw game whose stub runs out deals cards no view without every discard can place.
    assert unplaced == 0 or find_variant(variant).is_draw


def test_cards_from_the_shuffled_back_discards_are_counted_apart_not_as_checked() -> None:
    """Four players of triple draw run the stub out: the discards are shuffled back; a view
    that hides other players' discards cannot place the cards dealt from them."""
    written = random_table_hands("27-triple-draw", hands=4, seed=len("27-triple-draw"))
    found = [verify_history(tomli_w_roundtrip(history)) for history in written]
    assert any(f.unplaced for f in found)
    assert all(f.checked > 0 for f in found)


def tomli_w_roundtrip(history: dict[str, Any]) -> dict[str, Any]:
    """The history as a file holds it (what `boardroom verify` and the browser read)."""
    import tomllib

    return tomllib.loads(tomli_w.dumps(history))


def _redraw_history() -> dict[str, Any]:
    """An ESG hand's own history (the first player's view) with redraws and a fold."""
    for seed in range(50):
        for history in random_table_hands("esg", hands=1, seed=seed)[1:]:
            actions = history["actions"]
            if any("# redraw" in a for a in actions) and any(a.endswith(" f") for a in actions) \
                    and any(" sm " in a for a in actions):
                return history
    raise AssertionError("no ESG hand with redraws, a fold and a showdown")


def _seen(history: dict[str, Any]) -> int:
    """The cards a history shows (every one of them is checked)."""
    return sum(c != "?" for a in history["actions"] for c in (_cards_of(a) or "")) // 2


def _cards_of(action: str) -> str | None:
    words = action.split("#")[0].split()
    if words[:2] in (["d", "dh"], ["d", "db"]) or (len(words) == 3 and words[1] == "sm"):
        return words[-1]
    return None


def test_changing_any_one_card_fails_and_names_the_card_and_the_position() -> None:
    history = _redraw_history()
    assert check_history(history) > 20
    mutated = 0
    for number, action in enumerate(history["actions"]):
        cards = _cards_of(action)
        if cards is None:
            continue
        for k in range(0, len(cards), 2):
            if cards[k:k + 2] == "??":
                continue
            card = parse_cards(cards[k:k + 2])[0]
            if " sm " in action:  # a card the player never held: the first board card
                board = next(a for a in history["actions"] if a.startswith("d db"))
                other = format_card(parse_cards(board.split()[2][:2])[0])
            else:
                other = format_card((card + 1) % 52)
            changed = json.loads(json.dumps(history))
            changed["actions"][number] = action.replace(cards, cards[:k] + other + cards[k + 2:])
            with pytest.raises(FairnessError) as failure:
                check_history(changed)
            message = str(failure.value)
            assert message.startswith(f"action {number + 1} (")
            assert other in message
            if " sm " in action:
                assert "a card the committed deck never dealt them" in message
            else:
                assert f"but the committed deck has {format_card(card)} there" in message
                assert "position" in message
            mutated += 1
    assert mutated > 20


def test_changing_any_seed_or_the_commitment_fails() -> None:
    history = _redraw_history()
    fields = history[FIELD]
    for k in range(len(fields["client_seeds"])):
        changed = json.loads(json.dumps(history))
        seed = changed[FIELD]["client_seeds"][k]
        changed[FIELD]["client_seeds"][k] = ("1" if seed[0] != "1" else "2") + seed[1:]
        with pytest.raises(FairnessError, match="but the committed deck has"):
            check_history(changed)
    changed = json.loads(json.dumps(history))
    changed[FIELD]["server_seed"] = "00" + fields["server_seed"][2:]
    with pytest.raises(FairnessError, match="the server seed does not match the commitment"):
        check_history(changed)
    changed = json.loads(json.dumps(history))
    changed[FIELD]["commitment"] = "0" * 64
    with pytest.raises(FairnessError, match="the commitment published before the hand was 0000"):
        check_history(changed)
    for key, value, message in [("scheme", "v0", "this verifier knows"),
                                ("room", "elsewhere", "but the committed deck has"),
                                ("hand_no", 99, "but the committed deck has"),
                                ("server_seed", "zz", "64 lowercase hex digits"),
                                ("client_seeds", [], "must list every player's seed")]:
        changed = json.loads(json.dumps(history))
        changed[FIELD][key] = value
        with pytest.raises(FairnessError, match=message):
            check_history(changed)
    del changed[FIELD]
    with pytest.raises(FairnessError, match="has no _fairness table"):
        check_history(changed)


def test_boardroom_verify_exits_0_or_2_with_the_reason(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    history = _redraw_history()
    good = tmp_path / "good.toml"
    good.write_text(tomli_w.dumps(history))
    as_json = tmp_path / "hand.json"
    as_json.write_text(json.dumps({"room": "r", "history": history}))
    assert main(["verify", str(good), str(as_json)]) == 0
    out = capsys.readouterr().out
    assert out.count(": verified: hand 1 of room ") == 2
    bad = tmp_path / "bad.toml"
    changed = json.loads(json.dumps(history))
    changed[FIELD]["commitment"] = "f" * 64
    bad.write_text(tomli_w.dumps(changed))
    garbage = tmp_path / "garbage.toml"
    garbage.write_text("actions = [")
    assert main(["verify", str(good), str(bad), str(garbage),
                 str(tmp_path / "missing.toml")]) == 2
    out = capsys.readouterr().out
    assert f"{bad}: NOT VERIFIED: the server seed does not match the commitment" in out
    assert f"{garbage}: NOT VERIFIED: {garbage} is not a TOML hand history" in out
    assert "missing.toml: NOT VERIFIED: cannot read" in out
    assert "Traceback" not in out


def test_boardroom_verify_loads_neither_the_engine_nor_numpy(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "hand.toml"
    path.write_text(tomli_w.dumps(_redraw_history()))
    code = ("import sys\nfrom boardroom.cli import main\ncode = main(['verify', sys.argv[1]])\n"
            "print(code, sorted(m for m in sys.modules if m.startswith(('boardroom.engine', "
            "'numpy', 'boardroom.server', 'boardroom.table'))))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"
