#!/usr/bin/env bash
# The play command of the README: installs Boardroom into .venv and starts it.
# With arguments, runs that boardroom command instead (e.g. `bash scripts/play.sh variants`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_bootstrap.sh"
cd "$ROOT"
if [ "$#" -eq 0 ]; then
    exec boardroom play
fi
exec boardroom "$@"
