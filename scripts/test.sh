#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, run the whole test
# suite through ctest (GUI tests under a virtual X display, Mesa llvmpipe).
# Usage: scripts/test.sh [--sanitize] [--no-gui]
#   --sanitize: AddressSanitizer + UBSan build in build-asan/; a report fails the test that made it
#   --no-gui:   without the GUI, the Python package and the CUDA backend (scripts/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build=$("$root/scripts/build.sh" "$@")
export QT_QPA_PLATFORM=xcb
# LeakSanitizer is off: Mesa and fontconfig keep allocations alive until exit by design, which
# it would report as leaks; address and undefined-behaviour errors still abort the test.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
cd "$build"
xvfb-run -a -s "-screen 0 1600x1000x24" ctest --output-on-failure -j 2 --timeout 600
