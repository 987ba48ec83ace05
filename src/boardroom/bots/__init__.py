"""Bots: players that see exactly what their seat sees and send the commands a person sends.

``make_bot(style, seed)`` builds one (``tight``, ``loose``, ``random``, ``station``);
``bot.respond(view)`` answers the view of its seat with an action value (``engine.actions``);
``simulate`` plays bots against each other on the engine without a server.
"""

from boardroom.bots.players import (
    STYLES,
    Bot,
    BotError,
    CallingStation,
    EquityBot,
    RandomBot,
    make_bot,
)

__all__ = [
    "STYLES",
    "Bot",
    "BotError",
    "CallingStation",
    "EquityBot",
    "RandomBot",
    "make_bot",
]
