#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, open the GUI.
# Usage: scripts/run.sh [FILE]   (default: mechanisms/fourbar.json)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" >/dev/null  # (the build log is on stderr)
file="${1:-$root/mechanisms/fourbar.json}"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; starting the GUI under xvfb-run (nothing will be visible)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$root/build/app/mechsim" "$file"
fi
exec "$root/build/app/mechsim" "$file"
