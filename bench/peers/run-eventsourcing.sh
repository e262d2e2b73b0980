#!/usr/bin/env bash
# Runs the eventsourcing peer on an NDJSON file. Creates its own virtual environment with
# eventsourcing 9.5.6 from PyPI; when Python or the package is not available it says so and
# exits 0 with no output, so the benchmark suite reports the peer as skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${PEER_VENV:-$here/../out/peer-venv}
if ! command -v python3 >/dev/null 2>&1; then
  echo "peer skipped: python3 not found" >&2; exit 0
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import eventsourcing' 2>/dev/null; then
  python3 -m venv "$venv" >/dev/null 2>&1 || { echo "peer skipped: cannot create a virtual environment" >&2; exit 0; }
  "$venv/bin/pip" install -q "eventsourcing==9.5.6" >/dev/null 2>&1 \
    || { echo "peer skipped: cannot install eventsourcing==9.5.6 from PyPI" >&2; exit 0; }
fi
exec "$venv/bin/python" "$here/eventsourcing_peer.py" "$@"
