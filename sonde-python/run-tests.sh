#!/usr/bin/env bash
# Runs the tests of sonde-python against the installed package, as a user gets it: a fresh venv in
# sonde-python/.venv, `pip install ./sonde-python` into it, then unittest (standard library only).
# Exits non-zero when the install or any test fails. Used by `./sonde test` after `mvn verify`.
# PYTHON names the interpreter (default python3, at least 3.9).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="${PYTHON:-python3}"
fail() { echo "sonde-python: $*" >&2; exit 1; }

command -v "$PY" >/dev/null 2>&1 || fail "needs $PY (Python 3.9 or newer) on the PATH"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' || fail "needs Python 3.9 or newer, $PY is $("$PY" -V 2>&1)"
VENV="$HERE/.venv"
rm -rf "$VENV"
"$PY" -m venv "$VENV" || fail "cannot make a venv with $PY -m venv (Debian: apt-get install python3-venv)"
# pip fetches the build backend (setuptools) from PyPI; offline, see docs/python.md
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$HERE" \
  || fail "pip install $HERE failed (offline? see docs/python.md: --no-build-isolation with setuptools >= 70.1 or wheel installed)"
cd "$HERE/tests"
"$VENV/bin/python" -c 'import sonde, sys; print("sonde-python: testing", sonde.__file__, "on Python", sys.version.split()[0])'
SONDE_DIR= SONDE_TCP= "$VENV/bin/python" -m unittest discover -s . -p 'test_*.py' || fail "tests failed"
