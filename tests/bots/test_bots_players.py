"""Bots answer their seat's view with a person's actions: legal, deterministic, in style."""

from __future__ import annotations

import random

import pytest

from boardroom.bots import STYLES, BotError, make_bot
from boardroom.bots.players import EquityBot, in_position
from boardroom.bots.simulate import default_stakes
from boardroom.cards import parse_cards
from boardroom.engine import (
    Action,
    Allocate,
    Call,
    Check,
    Fold,
    Hand,
    RaiseTo,
    ScriptedCards,
    Stakes,
)
from boardroom.engine.view import view_for
from boardroom.rules import DEALERS_CHOICE, VARIANTS, find_variant
from boardroom.server.bot_driver import command_for
from boardroom.server.protocol import parse

BLINDS = Stakes(small_blind=1, big_blind=2)


def _play(variant_id: str, styles: list[str], seed: int) -> list[tuple[str, Action]]:
    variant = find_variant(variant_id)
    bots = [make_bot(style, seed + i, samples=40) for i, style in enumerate(styles)]
    hand = Hand(variant, default_stakes(variant), [200] * len(bots), 0,
                rng=random.Random(seed), manual_allocation=variant.has_allocation)
    commands: list[tuple[str, Action]] = []
    while not hand.is_over:
        seats = hand.allocation_pending if hand.is_allocating else (hand.actor,)
        for seat in seats:
            assert seat is not None
            command = bots[seat].respond(view_for(hand, seat))
            assert command is not None
            commands.append((styles[seat], command))
            hand.apply(seat, command)  # raises on anything illegal
    assert sum(hand.stacks) == 200 * len(bots)
    return commands


@pytest.mark.parametrize("variant", [v.id for v in VARIANTS])
def test_every_style_plays_legal_hands_of_every_variant(variant: str) -> None:
    for seed in range(2):
        _play(variant, ["tight", "loose", "random", "station"], seed)


def test_the_same_seed_gives_the_same_commands() -> None:
    styles = ["tight", "loose", "random"]
    assert _play("esg", styles, 7) == _play("esg", styles, 7)


def test_actions_become_protocol_commands_that_parse_back_to_them() -> None:
    for index, (_, action) in enumerate(_play("allocator", ["tight", "random", "station"], 3)):
        parsed = parse({"id": f"c{index}", **command_for(action)})
        assert parsed.type in ("act", "allocate")
        if parsed.type == "act":
            assert parsed.action == action
    assert make_bot("loose", 1).pick(["esg", "plo"]) in ("esg", "plo")


def test_allocation_commits_only_own_cards_with_the_optimiser() -> None:
    variant = find_variant("allocator")
    hand = Hand(variant, default_stakes(variant), [200, 200], 0, rng=random.Random(2),
                manual_allocation=True)
    while not hand.is_allocating:
        hand.check() if hand.can_check() else hand.call()
    for seat in (0, 1):
        command = make_bot("tight", seat).respond(view_for(hand, seat))
        assert command is not None
        assert isinstance(command, Allocate)
        committed = [c for _, cards in command.categories for c in cards]
        assert set(committed) <= set(hand.hole[seat])
        assert command.mapping() == hand.suggest_allocation(seat)
        hand.apply(seat, command)
    assert hand.is_over


def test_a_seat_with_nothing_to_decide_gets_no_command() -> None:
    hand = Hand(find_variant("plo"), BLINDS, [100] * 3, 0, rng=random.Random(1))
    waiting = next(s for s in range(3) if s != hand.actor)
    assert make_bot("tight", 1).respond(view_for(hand, waiting)) is None
    assert make_bot("tight", 1).respond(view_for(hand, None)) is None


def test_the_calling_station_never_folds_or_raises() -> None:
    played = _play("esg", ["station", "random", "station"], 11)
    assert any(style == "station" and command == Call() for style, command in played)
    for style, command in played:
        if style == "station":
            assert command in (Check(), Call())


def test_the_random_bot_raises_within_the_legal_range() -> None:
    amounts = [c.amount for seed in range(4) for _, c in _play("plo", ["random", "random"], seed)
               if isinstance(c, RaiseTo)]
    assert amounts  # every raise was applied, so each was within the legal min and max
    assert all(isinstance(amount, int) for amount in amounts)


def _river(hole: str, board: str, bet: bool) -> tuple[Hand, int]:
    """Heads-up PLO on the river: seat 0 (big blind) checks or bets the pot; seat 1 acts."""
    hand = Hand(find_variant("plo"), BLINDS, [400, 400], 1, cards=ScriptedCards(
        hole={0: parse_cards("Ah Ad Kc Kd"), 1: parse_cards(hole)},
        boards={"A": parse_cards(board)}, burns=parse_cards("2s 3s 4s")))
    while hand.street is not None and hand.street.name != "river":
        hand.check() if hand.can_check() else hand.call()
    legal = hand.legal_actions()
    assert legal is not None
    if bet:
        assert legal.raise_max is not None
        hand.raise_to(legal.raise_max)
    else:
        hand.check()
    assert hand.actor == 1
    return hand, 1


def test_a_tight_bot_folds_air_to_a_pot_sized_river_bet() -> None:
    hand, seat = _river("2h 3c 6c 8d", "Qs Js Ts 4h 5d", bet=True)
    command = make_bot("tight", 3).respond(view_for(hand, seat))
    assert command == Fold()


def test_equity_bots_bet_the_nuts_within_the_legal_range() -> None:
    for style in ("tight", "loose"):
        hand, seat = _river("As Ks 2c 3d", "Qs Js Ts 4h 5d", bet=False)
        view = view_for(hand, seat)
        command = make_bot(style, 3).respond(view)
        assert command is not None
        assert isinstance(command, RaiseTo)
        assert view.legal is not None
        assert view.legal.raise_min is not None
        assert view.legal.raise_max is not None
        assert view.legal.raise_min <= command.amount <= view.legal.raise_max
        assert in_position(view)


def test_dealers_choice_picks_one_of_the_offered_games() -> None:
    choices = [v.id for v in DEALERS_CHOICE.choices(4)]
    for style in STYLES:
        bot = make_bot(style, 5)
        picks = {bot.pick(choices) for _ in range(30)}
        assert picks <= set(choices)
        assert len(picks) > 1
    with pytest.raises(BotError):
        make_bot("tight", 1).pick([])


def test_unknown_styles_are_refused() -> None:
    with pytest.raises(BotError, match="unknown bot style"):
        make_bot("maniac")
    assert isinstance(make_bot("tight"), EquityBot)


@pytest.mark.parametrize(("game", "hole", "thrown"), [
    ("27-triple-draw", "7c 5d 4h 3s 3c", ("3s", "3c")),
    ("27-single-draw", "7c 5d 4h 3s 3c", ("3s", "3c")),
    ("badugi", "Ac 2d 3h Kh", ("Kh",)),
])
def test_the_draw_weighs_every_choice_of_discards_in_one_evaluation(
        monkeypatch: pytest.MonkeyPatch, game: str, hole: str, thrown: tuple[str, ...],
) -> None:
    """Every choice of discards (32 for a five-card hand) is scored in a single batch call,
    and the choice is still the one a player makes: break the pair, throw the second
    heart."""
    import numpy as np

    from boardroom.bots import players
    from boardroom.engine import strengths

    calls = []
    real = strengths.category_strengths

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strengths, "category_strengths", counted)
    cards = parse_cards(hole)
    variant = find_variant(game)
    most = len(cards)
    chosen = players.best_discards(variant, cards, set(cards), most, np.random.default_rng(3))
    assert len(chosen) == 1
    assert chosen[0] in parse_cards(" ".join(thrown))
    assert len(calls) == 1
    assert len(calls[0][2]) == 1 + 48 * (2 ** most - 1)  # standing pat is one row
