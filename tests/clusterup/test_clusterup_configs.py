"""``boardroom cluster up``'s parts without a cluster: the generated HAProxy and Redis
configurations are what the real programs accept (``haproxy -c``; a Redis started on its file
answers, saves nothing and stops), and bad arguments or missing programs get clear errors."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from boardroom.cli import main
from boardroom.cluster import ClusterError
from boardroom.cluster import postgres as postgres_module
from boardroom.cluster.haproxy import check_config, haproxy_config
from boardroom.cluster.processes import Child, find_binary, free_port
from boardroom.cluster.redis import answers_ping, redis_config

HAPROXY = Path("/usr/sbin/haproxy")
REDIS = Path("/usr/bin/redis-server")


@pytest.mark.parametrize("workers", [1, 3])
def test_the_haproxy_config_is_valid(tmp_path: Path, workers: int) -> None:
    config = tmp_path / "haproxy.cfg"
    names = [(f"w{n}", 20000 + n) for n in range(1, workers + 1)]
    config.write_text(haproxy_config(18000, names, tmp_path / "haproxy.sock"))
    done = subprocess.run([str(HAPROXY), "-c", "-f", str(config)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Configuration file is valid" in done.stdout
    text = config.read_text()
    for name, port in names:
        assert f"server {name} 127.0.0.1:{port} cookie {name}" in text
    assert "bind 127.0.0.1:18000" in text
    assert "http-check send meth GET uri /healthz" in text
    assert "timeout tunnel 1h" in text


def test_a_broken_haproxy_config_is_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(18000, [("w1", 20001)], tmp_path / "s.sock")
                      .replace("balance leastconn", "balance fastest"))
    with pytest.raises(ClusterError, match=r"(?s)haproxy -c -f \S+ failed.*haproxy\.cfg:\d+\] "
                                           r": balance only supports 'roundrobin'"):
        check_config(HAPROXY, config)


def test_redis_runs_on_its_config_and_keeps_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "redis"
    folder.mkdir()
    port = free_port()
    config = folder / "redis.conf"
    config.write_text(redis_config(port, folder))
    child = Child("Redis", [str(REDIS), str(config)], tmp_path / "redis.log")
    child.start()
    try:
        child.wait_until(lambda: answers_ping(port), 60, "answer PING")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
            connection.sendall(b"SET k v\r\nCONFIG GET save\r\n")
            answer = b""
            while answer.count(b"\r\n") < 4:
                answer += connection.recv(256)
        assert answer.startswith(b"+OK\r\n"), answer
        assert b"$4\r\nsave\r\n$0\r\n" in answer, answer  # no snapshots
    finally:
        assert child.stop(30) is None, child.tail()
    assert sorted(path.name for path in folder.iterdir()) == ["redis.conf"]  # nothing saved
    assert child.process is not None
    assert child.process.returncode in (0, -signal.SIGTERM)


def test_a_missing_program_names_its_package() -> None:
    with pytest.raises(ClusterError, match=r"no-such-server is not installed: install Debian's "
                                           r"no-such-package package \(apt-get install -y "
                                           r"no-such-package\)"):
        find_binary("no-such-server", "no-such-package")


def test_missing_postgresql_names_its_package(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setattr(postgres_module, "DEBIAN_BINARIES", tmp_path)
    with pytest.raises(ClusterError, match=r"PostgreSQL is not installed: .*apt-get install -y "
                                           r"postgresql"):
        postgres_module.find_binaries()


@pytest.mark.parametrize(("argv", "message"), [
    (["--workers", "0"], "--workers takes 1 to 16, not 0"),
    (["--workers", "17"], "--workers takes 1 to 16, not 17"),
    (["--port", "70000"], "--port takes 0 to 65535, not 70000"),
    (["--port", "-1"], "--port takes 0 to 65535, not -1"),
    (["--bot-think", "31"], "--bot-think must be 0 to 30 seconds"),
])
def test_bad_arguments_are_clear_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        argv: list[str], message: str) -> None:
    assert main(["cluster", "up", "--data", str(tmp_path / "d"), *argv]) == 2
    assert f"boardroom cluster: error: {message}" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()  # nothing was started or made


def test_a_taken_port_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["cluster", "up", "--port", str(port), "--data", str(tmp_path)]) == 2
    assert f"port {port} on 127.0.0.1 is taken" in capsys.readouterr().err


def test_a_data_file_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert main(["cluster", "up", "--port", "0", "--data", str(tmp_path / "file")]) == 2
    assert "--data" in capsys.readouterr().err


def test_a_folder_in_use_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    from boardroom.server.app import DataFolderLock

    held = DataFolderLock(tmp_path)
    held.acquire()
    try:
        assert main(["cluster", "up", "--port", "0", "--data", str(tmp_path)]) == 1
    finally:
        held.release()
    err = capsys.readouterr().err
    assert f"the data folder {tmp_path} is in use by another Boardroom server" in err
    assert not (tmp_path / "postgres").exists()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back


def test_the_help_names_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["cluster", "up", "--help"])
    out = capsys.readouterr().out
    for option in ("--workers", "--data", "--port", "--bot-think"):
        assert option in out
    assert shutil.which("haproxy") or HAPROXY.exists()


def test_cluster_up_without_redis_says_what_to_install(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no redis-server on it
    assert main(["cluster", "up", "--port", "0", "--data", str(tmp_path / "d")]) == 1
    assert ("boardroom cluster up: error: redis-server is not installed: install Debian's "
            "redis-server package (apt-get install -y redis-server)") in capsys.readouterr().err
    assert not (tmp_path / "d").exists()  # nothing was started or made
