# Sourced by scripts/play.sh and scripts/test.sh: makes ./.venv and installs what Boardroom needs.
# Idempotent: it reinstalls only when pyproject.toml changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
# Play installs the `compile` extra (mypyc, for the compiled engine below); tests install `test`,
# which includes it.
EXTRAS="${BOARDROOM_EXTRAS:-compile}"

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

# The stamp holds the hash of pyproject.toml and the extras installed with it; an install with
# the test extras also serves play (they include `compile`).
STAMP="$VENV/.boardroom-installed"
HASH="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
HAVE="$(cat "$STAMP" 2>/dev/null || true)"
served() { [ "$1" = "$2" ] || { [ "$2" = compile ] && [ "$1" = test ]; }; }
if [ "${HAVE%% *}" != "$HASH" ] || ! served "${HAVE#* }" "$EXTRAS"; then
    echo "==> installing Boardroom${EXTRAS:+ with [$EXTRAS]} into .venv"
    pip_install() {
        # This machine's pip config names optional local mirrors; their absence is not news.
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@" \
            2> >(grep -v "^WARNING: Location 'file://" >&2)
    }
    pip_install --upgrade pip
    if [ -n "$EXTRAS" ]; then
        pip_install -e "$ROOT[$EXTRAS]"
    else
        pip_install -e "$ROOT"
    fi
    echo "$HASH ${EXTRAS:-base}" >"$STAMP"
fi
# The compiled engine (boardroom.native, docs/design.md): built after an install and again
# whenever the engine's sources change (a fresh build is left as it is, in well under a second;
# a build takes about a minute). A failed build costs speed only: Boardroom then runs its pure
# Python engine, with the same results, and says so.
if [ "${BOARDROOM_ENGINE:-}" != pure ] &&
    ! BOARDROOM_ENGINE=pure "$VENV/bin/python" -m boardroom.native_build --quiet; then
    echo "==> the compiled engine could not be built: Boardroom runs its pure Python engine" \
        "(slower, the same results); \`python -m boardroom.native_build --force\` retries" >&2
fi
export PATH="$VENV/bin:$PATH"
