"""The cluster's sealed messages: read back only on the channel they were sealed for, under the
cluster's key, once, and while fresh; their text holds nothing of what they carry."""

from __future__ import annotations

import base64

import pytest

from boardroom.server.seal import MAX_AGE, Sealer, SealError

SECRET = b"k" * 32
MESSAGE = {"op": "command", "sid": "abc", "data": {"type": "join", "token": "seat-token-xyz"}}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_sealed_message_opens_once_on_its_channel_and_shows_nothing() -> None:
    clock = Clock()
    sender, receiver = Sealer(SECRET, clock), Sealer(SECRET, clock)
    text = sender.seal("boardroom:worker:w2", MESSAGE)
    assert "seat-token-xyz" not in text
    assert b"seat-token-xyz" not in base64.b64decode(text)
    assert receiver.open("boardroom:worker:w2", text) == MESSAGE
    with pytest.raises(SealError, match="twice"):
        receiver.open("boardroom:worker:w2", text)  # a replay


@pytest.mark.parametrize("change", ["channel", "key", "byte", "text"])
def test_a_message_changed_moved_or_not_sealed_by_the_cluster_is_refused(change: str) -> None:
    clock = Clock()
    text = Sealer(SECRET, clock).seal("boardroom:worker:w2", MESSAGE)
    receiver = Sealer(b"other key, 32 bytes long........" if change == "key" else SECRET, clock)
    channel = "boardroom:worker:w1" if change == "channel" else "boardroom:worker:w2"
    if change == "byte":
        raw = bytearray(base64.b64decode(text))
        raw[20] ^= 1
        text = base64.b64encode(bytes(raw)).decode()
    if change == "text":
        text = '{"op": "command", "sid": "abc"}'
    with pytest.raises(SealError, match="not sealed with the cluster's key"):
        receiver.open(channel, text)


def test_a_stale_message_is_refused() -> None:
    clock = Clock()
    text = Sealer(SECRET, clock).seal("c", MESSAGE)
    clock.now += MAX_AGE + 1
    with pytest.raises(SealError, match="old"):
        Sealer(SECRET, clock).open("c", text)


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        Sealer(b"short")


def test_the_nonces_kept_against_replays_are_forgotten_once_too_old_to_come_again() -> None:
    clock = Clock()
    sender, receiver = Sealer(SECRET, clock), Sealer(SECRET, clock)
    for _ in range(50):
        receiver.open("c", sender.seal("c", MESSAGE))
    assert len(receiver._seen) == 50
    clock.now += 3 * MAX_AGE
    receiver.open("c", sender.seal("c", MESSAGE))
    assert len(receiver._seen) == 1  # the 50 old ones went
