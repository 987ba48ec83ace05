"""The example files of ``deploy/`` are what the real programs accept: HAProxy checks the
multi-host configuration (with a throwaway certificate in place of the real one) and systemd
verifies the worker unit (``systemd-analyze verify``, with this checkout's ``boardroom`` in place
of /opt's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
CERTIFICATE = "/etc/haproxy/certs/poker.example.org.pem"
INSTALLED = "/opt/boardroom/.venv/bin/boardroom"


def test_the_multi_host_haproxy_config_is_valid(tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=poker.example.org"],
                   check=True, capture_output=True, timeout=120)
    pem = tmp_path / "both.pem"
    pem.write_text(cert.read_text() + key.read_text())
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert CERTIFICATE in text
    config = tmp_path / "haproxy.cfg"
    config.write_text(text.replace(CERTIFICATE, str(pem)))
    done = subprocess.run(["/usr/sbin/haproxy", "-c", "-f", str(config)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Configuration file is valid" in done.stdout


def test_the_worker_unit_verifies(tmp_path: Path) -> None:
    text = (DEPLOY / "boardroom-worker@.service").read_text()
    assert INSTALLED in text
    boardroom = Path(sys.executable).with_name("boardroom")
    assert boardroom.exists()
    unit = tmp_path / "boardroom-worker@8001.service"  # an instance: %i is the port
    unit.write_text(text.replace(INSTALLED, str(boardroom)))
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_environment_file_names_every_variable_the_unit_uses() -> None:
    unit = (DEPLOY / "boardroom-worker@.service").read_text()
    env = (DEPLOY / "boardroom.env").read_text()
    defined = {line.split("=", 1)[0] for line in env.splitlines()
               if line and not line.startswith("#")}
    used = {word.strip("${}") for word in unit.split() if word.startswith("${")}
    assert used == {"BOARDROOM_LISTEN", "BOARDROOM_PUBLIC_URL"}
    assert used <= defined
    # the URLs, with their passwords, reach the worker in its environment, off its command line
    assert {"BOARDROOM_DATABASE_URL", "BOARDROOM_REDIS_URL"} <= defined
    assert "--database" not in unit
    assert "--redis" not in unit
    assert "MALLOC_ARENA_MAX" in defined  # glibc's arenas: the soak's free-but-kept memory
