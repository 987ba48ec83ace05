#!/usr/bin/env bash
# The test command of the README: lint, type-check and run the default test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m slow` for the long cross-checks).
set -euo pipefail
BOARDROOM_EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/_bootstrap.sh"
cd "$ROOT"
# Debian packages the tests drive, installed when missing: Chromium for the browser tests;
# PostgreSQL, Redis and HAProxy for the store and cluster tests (`boardroom cluster up`).
MISSING=""
[ -x /usr/bin/chromium ] || MISSING="$MISSING chromium fonts-dejavu-core"
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || MISSING="$MISSING postgresql"
[ -x /usr/bin/redis-server ] || MISSING="$MISSING redis-server"
[ -x /usr/sbin/haproxy ] || MISSING="$MISSING haproxy"
if [ -n "$MISSING" ]; then
    echo "==> installing Debian's$MISSING for the tests"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    # The packages' own services (PostgreSQL on 5432, Redis on 6379, HAProxy) are not to start:
    # the tests start their own on free loopback ports. Debian's policy-rc.d says so.
    POLICY=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        POLICY=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
        $SUDO chmod +x "$POLICY"
    fi
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $MISSING >/dev/null
    [ -z "$POLICY" ] || $SUDO rm -f "$POLICY"
fi
echo "==> ruff"
ruff check src tests
echo "==> mypy --strict src"
mypy --strict src
echo "==> pytest"
JOBS="${BOARDROOM_TEST_JOBS:-auto}"
# worksteal: a worker that runs out of tests takes pending ones from the other, so one long test
# late in the order does not leave a worker idle at the end.
exec pytest -n "$JOBS" --dist worksteal "$@"
