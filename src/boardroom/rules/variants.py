"""Every game Boardroom deals, as data (RULES.md sections 3, 4 and 5), and the registry."""

from __future__ import annotations

from dataclasses import dataclass

from boardroom.evaluation import Ranking
from boardroom.rules.spec import (
    BettingStructure,
    Board,
    BringIn,
    Category,
    Construction,
    FirstToAct,
    ForcedBets,
    Reveal,
    SpecError,
    Split,
    Street,
    Variant,
)

POT = BettingStructure.POT_LIMIT
ALL_STRUCTURES = (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT,
                  BettingStructure.FIXED_LIMIT)


def _reveal(*pairs: tuple[str, int]) -> tuple[Reveal, ...]:
    return tuple(Reveal(board, count) for board, count in pairs)


def _blind_streets(boards: str, caps: tuple[int | None, int | None, int | None] = (None,) * 3,
                   first_reveal: int = 3) -> tuple[Street, ...]:
    """Preflop, flop, turn, river over ``boards``, with the flop showing ``first_reveal`` cards."""
    flop_cap, turn_cap, river_cap = caps
    return (
        Street("preflop", first_to_act=FirstToAct.LEFT_OF_BIG_BLIND),
        Street("flop", _reveal(*((b, first_reveal) for b in boards)), redraw_cap=flop_cap),
        Street("turn", _reveal(*((b, 1) for b in boards)), redraw_cap=turn_cap, big_bet=True),
        Street("river", _reveal(*((b, 1) for b in boards)), redraw_cap=river_cap, big_bet=True),
    )


def _bomb_streets(caps: tuple[int | None, int | None, int | None] = (None,) * 3,
                  christmas: bool = False) -> tuple[Street, ...]:
    """Ante games: the bomb street shows both flops (and XMAS's Christmas card) at once."""
    bomb_cap, turn_cap, river_cap = caps
    bomb = _reveal(("A", 3), ("B", 3), *((("X", 1),) if christmas else ()))
    return (
        Street("bomb", bomb, redraw_cap=bomb_cap),
        Street("turn", _reveal(("A", 1), ("B", 1)), redraw_cap=turn_cap, big_bet=True),
        Street("river", _reveal(("A", 1), ("B", 1)), redraw_cap=river_cap, big_bet=True),
    )


def _omaha(name: str, board: str) -> Category:
    return Category(name, Construction.OMAHA, Ranking.HIGH, board=board)


TWO_BOARDS = (Board("A", 5), Board("B", 5))

ESG = Variant(
    id="esg", name="ESG", boards=TWO_BOARDS, hole_cards=6,
    streets=_blind_streets("AB", (3, 6, 9)),
    categories=(_omaha("A", "A"), _omaha("B", "B"),
                Category("Hand", Construction.HOLE_ONLY, Ranking.HIGH)),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={6: 6},
    summary="Two boards and a private high hand; redraws 3/6/9.",
)

ESG_LOW = Variant(
    id="esg-low", name="ESG Low", boards=TWO_BOARDS, hole_cards=6,
    streets=_blind_streets("AB", (3, 6, 9)),
    categories=(_omaha("A", "A"), _omaha("B", "B"),
                Category("Hand", Construction.HOLE_ONLY, Ranking.ESG_LOW)),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={6: 6},
    summary="ESG with a private low hand (ace high, no straight or flush; nut low 7-5-4-3-2).",
)

XMAS = Variant(
    id="xmas", name="XMAS", boards=(*TWO_BOARDS, Board("X", 1)), hole_cards=6,
    streets=_bomb_streets((0, 5, 10), christmas=True),
    categories=(_omaha("A", "A"), _omaha("B", "B"),
                Category("Tree", Construction.TREE, Ranking.HIGH, board="X")),
    forced_bets=ForcedBets.ANTES, max_players_by_hole={6: 6},
    summary="Antes, a bomb street, and the Tree: exactly 4 hole cards + the Christmas card.",
)

BALANCE = Variant(
    id="balance", name="Balance", boards=(*TWO_BOARDS, Board("C", 5)), hole_cards=5,
    streets=_blind_streets("ABC", (3, 6, 9)),
    categories=(_omaha("A", "A"), _omaha("B", "B"), _omaha("C", "C"),
                Category("Priv Hi", Construction.HOLE_ONLY, Ranking.HIGH),
                Category("Priv Lo", Construction.HOLE_ONLY, Ranking.ESG_LOW)),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 7},
    summary="Three boards, a private high and a private low: five points a pot.",
)

BOMB = Variant(
    id="bomb", name="Bomb", boards=TWO_BOARDS, hole_cards=4,
    streets=_bomb_streets(),
    categories=(_omaha("A", "A"), _omaha("B", "B")),
    forced_bets=ForcedBets.ANTES, max_players_by_hole={4: 10, 5: 8, 6: 7},
    summary="Antes, both flops at once, two boards, no redraws; 4, 5 or 6 hole cards.",
)

ALLOCATOR = Variant(
    id="allocator", name="Allocator", boards=TWO_BOARDS, hole_cards=6,
    streets=_bomb_streets(),
    categories=(Category("A", Construction.HOLDEM, Ranking.HIGH, board="A", allocated=2),
                Category("B", Construction.HOLDEM, Ranking.HIGH, board="B", allocated=2),
                Category("Hand", Construction.ALLOCATED, Ranking.TWO_CARD, allocated=2)),
    forced_bets=ForcedBets.ANTES, max_players_by_hole={6: 7},
    summary="After the river each player splits 6 cards 2/2/2: two Hold'em boards and a "
            "2-card Hand.",
)

ALLOCATOR_REDRAW = Variant(
    id="allocator-redraw", name="Allocator Redraw", boards=TWO_BOARDS, hole_cards=6,
    streets=_bomb_streets((0, 3, 6)),
    categories=(Category("A", Construction.HOLDEM, Ranking.HIGH, board="A", allocated=2),
                Category("B", Construction.HOLDEM, Ranking.HIGH, board="B", allocated=2),
                Category("Hand", Construction.ALLOCATED, Ranking.THREE_CARD, allocated=3)),
    forced_bets=ForcedBets.ANTES, max_players_by_hole={6: 6},
    summary="Allocator with redraws 0/3/6 and a 3-card Hand; allocate 2/2/3, discard the rest.",
)

TILT = Variant(
    id="tilt", name="Tilt",
    boards=(Board("A", 5, tilted=5), Board("B", 5, tilted=4), Board("C", 5, tilted=3),
            Board("D", 1, tilted=1)),
    hole_cards=5,
    streets=(
        Street("preflop", first_to_act=FirstToAct.LEFT_OF_BIG_BLIND),
        Street("flop", _reveal(("A", 3), ("B", 3), ("C", 3), ("D", 1)), redraw_cap=3),
        Street("turn", _reveal(("A", 1), ("B", 1), ("C", 1)), redraw_cap=6, big_bet=True),
        Street("river", _reveal(("A", 1), ("B", 1), ("C", 1)), redraw_cap=9, big_bet=True),
    ),
    categories=(
        Category("A", Construction.TILT_BOARD, Ranking.HIGH, board="A"),
        Category("B", Construction.TILT_BOARD, Ranking.HIGH, board="B"),
        Category("C", Construction.TILT_BOARD, Ranking.HIGH, board="C"),
        Category("Tilt", Construction.TILT_DIAGONAL, Ranking.HIGH),
        Category("Hand", Construction.HOLE_ONLY, Ranking.HIGH),
    ),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 6},
    summary="Four boards with a tilted card each (A5, B4, C3, D1) forming the diagonal.",
)

PLO = Variant(
    id="plo", name="PLO", boards=(Board("A", 5),), hole_cards=4,
    streets=_blind_streets("A"),
    categories=(_omaha("High", "A"),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={4: 10, 5: 8, 6: 7},
    betting_options=ALL_STRUCTURES, burns=True,
    summary="Pot-limit Omaha with 4, 5 or 6 hole cards; no limit and fixed limit as options.",
)

OMAHA_HILO = Variant(
    id="omaha-hilo", name="Omaha Hi-Lo", boards=(Board("A", 5),), hole_cards=4,
    streets=_blind_streets("A"),
    categories=(_omaha("High", "A"),
                Category("Low", Construction.OMAHA, Ranking.LOW8, board="A")),
    forced_bets=ForcedBets.BLINDS, split=Split.HI_LO, max_players_by_hole={4: 10},
    betting_options=(BettingStructure.POT_LIMIT, BettingStructure.FIXED_LIMIT), burns=True,
    summary="Omaha eight or better: half to the best high, half to the best A-5 low.",
)

COURCHEVEL = Variant(
    id="courchevel", name="Courchevel", boards=(Board("A", 5),), hole_cards=5,
    streets=(
        Street("preflop", _reveal(("A", 1)), first_to_act=FirstToAct.LEFT_OF_BIG_BLIND),
        Street("flop", _reveal(("A", 2))),
        Street("turn", _reveal(("A", 1)), big_bet=True),
        Street("river", _reveal(("A", 1)), big_bet=True),
    ),
    categories=(_omaha("High", "A"),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 8},
    betting_options=ALL_STRUCTURES, burns=True,
    summary="Five-card Omaha with the first flop card face up before the preflop betting.",
)

def _seven_stud_streets(later: FirstToAct = FirstToAct.BEST_SHOWING) -> tuple[Street, ...]:
    """Third street (2 down, 1 up, the bring-in), fourth to sixth up, seventh down."""
    return (
        Street("third", hole_down=2, hole_up=1, first_to_act=FirstToAct.BRING_IN),
        Street("fourth", hole_up=1, first_to_act=later),
        Street("fifth", hole_up=1, first_to_act=later, big_bet=True),
        Street("sixth", hole_up=1, first_to_act=later, big_bet=True),
        Street("seventh", hole_down=1, first_to_act=later, big_bet=True),
    )


HOLDEM = Variant(
    id="holdem", name="Texas Hold'em", boards=(Board("A", 5),), hole_cards=2,
    streets=_blind_streets("A"),
    categories=(Category("High", Construction.HOLDEM, Ranking.HIGH, board="A"),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={2: 10},
    betting=BettingStructure.NO_LIMIT, betting_options=ALL_STRUCTURES, burns=True,
    summary="Two hole cards and five on the board, best five of the seven; no limit by "
            "default, pot limit and fixed limit as options.",
)

STUD_LIMITS = (BettingStructure.FIXED_LIMIT, BettingStructure.POT_LIMIT)

STUD_HILO = Variant(
    id="stud-hilo", name="7 Card Stud Hi-Lo", boards=(), hole_cards=7,
    streets=_seven_stud_streets(),
    categories=(Category("High", Construction.HOLE_ONLY, Ranking.HIGH),
                Category("Low", Construction.HOLE_ONLY, Ranking.LOW8)),
    forced_bets=ForcedBets.BRING_IN, split=Split.HI_LO, max_players_by_hole={7: 7},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=STUD_LIMITS,
    bring_in=BringIn.HIGHEST,
    summary="Seven card stud, high and A-5 eight-or-better low; bring-in by the highest up card.",
)

STUD = Variant(
    id="stud", name="7 Card Stud", boards=(), hole_cards=7,
    streets=_seven_stud_streets(),
    categories=(Category("High", Construction.HOLE_ONLY, Ranking.HIGH),),
    forced_bets=ForcedBets.BRING_IN, max_players_by_hole={7: 7},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=STUD_LIMITS,
    bring_in=BringIn.LOWEST,
    summary="Seven card stud, best five of seven cards high; the lowest up card brings in.",
)

RAZZ = Variant(
    id="razz", name="Razz", boards=(), hole_cards=7,
    streets=_seven_stud_streets(FirstToAct.LOW_SHOWING),
    categories=(Category("Low", Construction.HOLE_ONLY, Ranking.A5_LOW),),
    forced_bets=ForcedBets.BRING_IN, max_players_by_hole={7: 7},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=STUD_LIMITS,
    bring_in=BringIn.HIGHEST_ACE_LOW, bring_in_options=(BringIn.HIGHEST_ACE_LOW,),
    summary="Seven card stud for the lowest hand, A-5 (pairs count, straights and flushes do "
            "not); the highest up card brings in, the lowest hand showing acts first after.",
)

STUD5 = Variant(
    id="stud5", name="5 Card Stud", boards=(), hole_cards=5,
    streets=(
        Street("second", hole_down=1, hole_up=1, first_to_act=FirstToAct.BRING_IN),
        Street("third", hole_up=1, first_to_act=FirstToAct.BEST_SHOWING),
        Street("fourth", hole_up=1, first_to_act=FirstToAct.BEST_SHOWING, big_bet=True),
        Street("fifth", hole_up=1, first_to_act=FirstToAct.BEST_SHOWING, big_bet=True),
    ),
    categories=(Category("High", Construction.HOLE_ONLY, Ranking.HIGH),),
    forced_bets=ForcedBets.BRING_IN, max_players_by_hole={5: 10},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=STUD_LIMITS,
    bring_in=BringIn.LOWEST,
    summary="One card down and four up, best five high; the lowest up card brings in.",
)

def _draw_streets(draws: int, cards: int) -> tuple[Street, ...]:
    """Predraw betting after the blinds, then ``draws`` draws of up to ``cards`` cards, each
    followed by a betting round; fixed limit: the big bet from the second draw on."""
    names = ("draw",) if draws == 1 else ("first draw", "second draw", "third draw")[:draws]
    return (
        Street("predraw", first_to_act=FirstToAct.LEFT_OF_BIG_BLIND),
        *(Street(name, draw=cards, big_bet=k >= 1) for k, name in enumerate(names)),
    )


FIVE_CARD_DRAW = Variant(
    id="five-card-draw", name="Five Card Draw", boards=(), hole_cards=5,
    streets=_draw_streets(1, 5),
    categories=(Category("High", Construction.HOLE_ONLY, Ranking.HIGH),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 6}, betting_options=ALL_STRUCTURES,
    summary="Five cards down, one draw of up to five, best high hand; no opening "
            "requirement (jacks or better not needed).",
)

SINGLE_DRAW_27 = Variant(
    id="27-single-draw", name="2-7 Single Draw", boards=(), hole_cards=5,
    streets=_draw_streets(1, 5),
    categories=(Category("Low", Construction.HOLE_ONLY, Ranking.DEUCE_SEVEN),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 6},
    betting=BettingStructure.NO_LIMIT, betting_options=ALL_STRUCTURES,
    summary="Deuce-to-seven lowball, one draw, no limit: the ace is high, straights and "
            "flushes count against you; the nuts is 7-5-4-3-2.",
)

TRIPLE_DRAW_27 = Variant(
    id="27-triple-draw", name="2-7 Triple Draw", boards=(), hole_cards=5,
    streets=_draw_streets(3, 5),
    categories=(Category("Low", Construction.HOLE_ONLY, Ranking.DEUCE_SEVEN),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={5: 6},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=ALL_STRUCTURES,
    summary="Deuce-to-seven lowball with three draws, fixed limit.",
)

BADUGI = Variant(
    id="badugi", name="Badugi", boards=(), hole_cards=4,
    streets=_draw_streets(3, 4),
    categories=(Category("Badugi", Construction.HOLE_ONLY, Ranking.BADUGI),),
    forced_bets=ForcedBets.BLINDS, max_players_by_hole={4: 6},
    betting=BettingStructure.FIXED_LIMIT, raise_cap=4, betting_options=ALL_STRUCTURES,
    summary="Four cards, three draws, fixed limit: the lowest hand of four suits and four "
            "ranks wins (ace low; the nuts is 4-3-2-A).",
)

VARIANTS: tuple[Variant, ...] = (
    ESG, ESG_LOW, XMAS, BALANCE, BOMB, ALLOCATOR, ALLOCATOR_REDRAW, TILT, PLO,
    OMAHA_HILO, COURCHEVEL, STUD_HILO, HOLDEM, STUD, RAZZ, STUD5,
    FIVE_CARD_DRAW, SINGLE_DRAW_27, TRIPLE_DRAW_27, BADUGI,
)




@dataclass(frozen=True)
class DealersChoice:
    """Dealer's Choice: the button picks any other variant whose max players fits the table."""

    id: str = "dealers-choice"
    name: str = "Dealer's Choice"
    default: str = "esg"  # the game when nobody has picked yet (RULES.md section 3)
    summary: str = "The player on the button picks the game, and its options, for each hand."

    def choices(self, players: int) -> tuple[Variant, ...]:
        """The variants the button may pick with ``players`` dealt in."""
        return tuple(v for v in VARIANTS
                     if max(v.max_players_by_hole.values()) >= players)


DEALERS_CHOICE = DealersChoice()

_BY_ID = {variant.id: variant for variant in VARIANTS}
_ALIASES = {
    "omaha": "plo", "plo4": "plo", "pot-limit-omaha": "plo", "omaha8": "omaha-hilo",
    "o8": "omaha-hilo", "plo8": "omaha-hilo", "stud8": "stud-hilo", "7-card-stud-hilo": "stud-hilo",
    "esglow": "esg-low", "allocatorredraw": "allocator-redraw", "christmas": "xmas",
    "dc": "dealers-choice", "dealer's-choice": "dealers-choice",
    "texas-holdem": "holdem", "hold'em": "holdem", "texas-hold'em": "holdem", "nlhe": "holdem",
    "nlh": "holdem", "7-card-stud": "stud", "seven-card-stud": "stud", "7stud": "stud",
    "5-card-stud": "stud5", "five-card-stud": "stud5",
    "draw": "five-card-draw", "5-card-draw": "five-card-draw", "2-7-single-draw": "27-single-draw",
    "deuce-to-seven": "27-single-draw", "2-7-triple-draw": "27-triple-draw",
    "triple-draw": "27-triple-draw", "27-lowball": "27-triple-draw",
}


def canonical_id(game_id: str) -> str:
    """A game id as the registry knows it: case-insensitive, ``_`` and spaces read as ``-``,
    aliases resolved (``o8`` is ``omaha-hilo``)."""
    key = game_id.strip().lower().replace("_", "-").replace(" ", "-")
    return _ALIASES.get(key, key)


def find_variant(variant_id: str) -> Variant:
    """The variant with this id or alias (case-insensitive; ``_`` and spaces read as ``-``)."""
    key = canonical_id(variant_id)
    if key == DEALERS_CHOICE.id:
        raise SpecError("dealers-choice is not a game of its own: the button picks a variant "
                        "for each hand")
    try:
        return _BY_ID[key]
    except KeyError:
        raise unknown(variant_id) from None


def unknown(game_id: str, *more: str) -> SpecError:
    """The error for a game id the registry does not know, listing the ones it does (and
    ``more``, the games a caller takes beside the variants)."""
    known = ", ".join([*_BY_ID, DEALERS_CHOICE.id, *more])
    return SpecError(f"unknown variant {game_id!r} (known: {known})")
