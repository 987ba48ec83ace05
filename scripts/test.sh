#!/usr/bin/env bash
# The test command of the README: lint, type-check and run the default test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -m slow` for the long cross-checks).
set -euo pipefail
BOARDROOM_EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/_bootstrap.sh"
cd "$ROOT"
echo "==> ruff"
ruff check src tests
echo "==> mypy --strict src"
mypy --strict src
echo "==> pytest"
JOBS="${BOARDROOM_TEST_JOBS:-auto}"
exec pytest -n "$JOBS" "$@"
