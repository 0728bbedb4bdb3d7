#!/usr/bin/env bash
# Configures and builds mechsim into BUILD_DIR (default build/, or build-asan/ with --sanitize).
# Usage: scripts/build.sh [--sanitize] [--no-gui] [extra cmake -D options]
#   --no-gui: without the GUI, the Python package and the CUDA backend (core, io, the command line,
#   the fuzz replays and their tests): what CI builds a second time under the sanitizers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=OFF
extra=()
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=ON ;;
    --no-gui) extra+=(-DMECHSIM_BUILD_GUI=OFF -DMECHSIM_PYTHON=OFF -DMECHSIM_CUDA=OFF) ;;
    *) extra+=("$a") ;;
  esac
done
if [ "$sanitize" = ON ]; then
  build="${BUILD_DIR:-$root/build-asan}"
  type=RelWithDebInfo
else
  build="${BUILD_DIR:-$root/build}"
  type=Release
fi
jobs=$(nproc 2>/dev/null || echo 2)
# The build log goes to stderr; stdout carries only the build folder (for scripts/test.sh).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=$type -DMECHSIM_SANITIZE=$sanitize "${extra[@]}" >&2
cmake --build "$build" -j "$jobs" >&2
echo "$build"
