"""The web app (DESIGN.md, server layer): HTTP routes, the real-time protocol, one actor per
table, auth of seats and hosts, spectators. ``create_app(ServerConfig(...))`` builds it."""

from boardroom.server.app import (
    DataFolderInUse,
    Server,
    ServerConfig,
    check_data_folder,
    create_app,
    uvicorn_options,
)
from boardroom.server.config import UVICORN_WEBSOCKETS
from boardroom.server.housekeeping import tune_garbage_collector

__all__ = ["UVICORN_WEBSOCKETS", "DataFolderInUse", "Server", "ServerConfig",
           "check_data_folder", "create_app", "tune_garbage_collector", "uvicorn_options"]
