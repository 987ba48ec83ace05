"""What each connection costs the server beyond its messages: ``boardroom serve`` accepts no
per-message deflate, whose zlib streams cost every connection about 50 KiB and every message a
compression (docs/decisions.md)."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from server_helpers import free_port, serve


async def test_a_browser_offering_deflate_gets_plain_frames(tmp_path: Path) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket"
    with serve(tmp_path / "data", port, tmp_path / "serve.log"):
        # Every browser offers permessage-deflate; aiohttp offers it with compress=15.
        async with aiohttp.ClientSession() as session, \
                session.ws_connect(url, compress=15) as ws:
            assert ws.compress == 0, "the server accepted per-message deflate"
            assert (await ws.receive_str()).startswith("0")  # Engine.IO's opening
            await ws.send_str("40")
            assert (await ws.receive_str()).startswith("40")  # Socket.IO's connect
