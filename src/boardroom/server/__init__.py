"""The web app (DESIGN.md, server layer): HTTP routes, the real-time protocol, one actor per
table, auth of seats and hosts, spectators. ``create_app(ServerConfig(...))`` builds it."""

from boardroom.server.app import Server, ServerConfig, create_app, tune_garbage_collector

__all__ = ["Server", "ServerConfig", "create_app", "tune_garbage_collector"]
