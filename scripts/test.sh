#!/usr/bin/env bash
# The test command of the README: lint, type-check and run the default test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m slow` for the long cross-checks).
set -euo pipefail
BOARDROOM_EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/_bootstrap.sh"
cd "$ROOT"
# The browser tests drive Debian's Chromium; install it when it is missing.
if [ ! -x /usr/bin/chromium ]; then
    echo "==> installing Debian's chromium for the browser tests"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi
echo "==> ruff"
ruff check src tests
echo "==> mypy --strict src"
mypy --strict src
echo "==> pytest"
JOBS="${BOARDROOM_TEST_JOBS:-auto}"
exec pytest -n "$JOBS" "$@"
