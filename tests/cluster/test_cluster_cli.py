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


PASSWORD = "hunter2-secret"


@pytest.mark.parametrize(("options", "environment", "message"), [
    (["--database-file", "missing.url"], {},
     "--database-file missing.url: cannot read it (No such file or directory)"),
    (["--redis-file", "empty.url"], {}, "--redis-file empty.url is empty"),
    (["--redis", "redis://127.0.0.1:1/0", "--redis-file", "redis.url"], {},
     "give --redis or --redis-file, not both"),
    ([], {"BOARDROOM_REDIS_URL": f"localhost:{PASSWORD}@6379"},
     "--redis must be a Redis URL like redis://"),
    ([], {"BOARDROOM_REDIS_URL": f"redis://:{PASSWORD}@127.0.0.1:1/0"},
     "share one PostgreSQL database"),
    (["--redis-file", "redis.url", "--database-file", "database.url", "--worker-id", "no way"],
     {}, "--worker-id is 1 to 64 letters"),
])
def test_urls_from_a_file_or_the_environment_are_checked_and_never_shown(
        options: list[str], environment: dict[str, str], message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.url").write_text("\n")
    (tmp_path / "redis.url").write_text(f"redis://:{PASSWORD}@127.0.0.1:1/0\n")
    (tmp_path / "database.url").write_text(f"postgresql://u:{PASSWORD}@127.0.0.1:1/d\n")
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--data", str(tmp_path), *options]) == 2
    error = capsys.readouterr().err
    assert message in error
    assert PASSWORD not in error
    assert "Traceback" not in error
