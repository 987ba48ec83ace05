"""``boardroom serve``'s cluster options: bad ones stop it at once with a clear error (exit 2),
before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardroom.cli import main


@pytest.mark.parametrize(("options", "message"), [
    (["--redis", "localhost:6379"], "--redis must be a Redis URL like redis://"),
    (["--redis", "redis://127.0.0.1:1/0"], "share one PostgreSQL database"),
    (["--redis", "redis://127.0.0.1:1/0", "--database", "sqlite:///x.db"],
     "share one PostgreSQL database"),
    (["--worker-id", "w1"], "--worker-id names a cluster's worker: give --redis too"),
    (["--redis", "redis://127.0.0.1:1/0", "--database", "postgresql://u@127.0.0.1:1/d",
      "--worker-id", "no spaces"], "--worker-id is 1 to 64 letters"),
])
def test_bad_cluster_options_are_clear_errors(options: list[str], message: str,
                                              tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--data", str(tmp_path), *options]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert "Traceback" not in error
