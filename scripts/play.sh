#!/usr/bin/env bash
# The play command of the README: installs Boardroom into .venv and starts it.
# Options go to `boardroom play` (e.g. `bash scripts/play.sh --game tilt --bots 2`); a command
# name runs that boardroom command instead (e.g. `bash scripts/play.sh games`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/_bootstrap.sh"
cd "$ROOT"
if [ "$#" -eq 0 ] || [[ "$1" == -* && "$1" != "-h" && "$1" != "--help" ]]; then
    exec boardroom play "$@"
fi
exec boardroom "$@"
