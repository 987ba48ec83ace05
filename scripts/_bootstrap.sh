# Sourced by scripts/play.sh and scripts/test.sh: makes ./.venv and installs what Boardroom needs.
# Idempotent: it reinstalls only when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
EXTRAS="${BOARDROOM_EXTRAS:-}"

find_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "Boardroom needs Python 3.11 or newer on PATH." >&2
    return 1
}

if [ ! -x "$VENV/bin/python" ]; then
    PY="$(find_python)"
    echo "==> creating virtual environment in .venv with $PY"
    "$PY" -m venv "$VENV"
fi

STAMP="$VENV/.boardroom-installed"
WANT="$(cat "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)-${EXTRAS}"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
    echo "==> installing Boardroom${EXTRAS:+ with [$EXTRAS]} into .venv"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    if [ -n "$EXTRAS" ]; then
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[$EXTRAS]"
    else
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT"
    fi
    echo "$WANT" >"$STAMP"
fi
export PATH="$VENV/bin:$PATH"
