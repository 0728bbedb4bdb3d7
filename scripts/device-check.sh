#!/usr/bin/env bash
# scripts/device-check.sh — the CUDA backend's checks on a machine that has a GPU but not this
# project's build dependencies (no Qt, Eigen, SuiteSparse there; nothing to install from).
#
#   scripts/device-check.sh pack [BUILD]   here: builds test_deform_gpu, bench_deform and mechsim-cli
#       in BUILD (default build/; its CUDA code is for sm_90), and packs them with every shared library
#       they load, the C library and its loader included, into .device/bundle.tar.xz (git-ignored).
#   scripts/device-check.sh run [OUTDIR]   there, from the repository root: unpacks the bundle and runs
#       1. the device's description (nvidia-smi),
#       2. test_deform_gpu (CPU-vs-GPU parity of the sweeps and whole solves),
#       3. `mechsim-cli deform` on the flexible-link example as jgs2-jacobi and jgs2-gs, --backend auto, cuda, cpu
#          (the command's choice of backend and its CSV against the CPU's),
#       4. `bench_deform --gpu` (bench/bench.h: the device rows beside their CPU twins, the 98k-tet
#          case with JGS2, the 1M-tet table), or the bench_deform options in DEVICE_CHECK_BENCH
#          (say "--large": the 98k- and 1M-tet cases alone, when the 12k-tet rows are measured;
#          "--large=98k" or "--large=1m": one of them, so that each fits one call), under
#          a time limit of DEVICE_CHECK_BENCH_TIMEOUT seconds (default 420, so that the whole check fits
#          one 10-minute call; the benchmark prints each case as it finishes, so a cut run keeps them).
#       5. test_deform_gpu under compute-sanitizer's memcheck, where the machine has it.
#       DEVICE_CHECK_ONLY (say "bench_gpu", or "test_deform_gpu,memcheck") runs only the named steps
#       of 2–5, so that a second call can give the benchmark alone its time (DEVICE_CHECK_BENCH=
#       --large=98k in one call, --large=1m in the next).
#       Logs (five files) go to OUTDIR (default $OUT, else .device/out). Exit status: that of the first
#       failing step.
#
# The programs run with the bundled loader and C library when the machine's C library is older than
# the one they were built with, and with the machine's own otherwise; the CUDA driver library
# (libcuda.so.1) is always the machine's.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cmd="${1:-}"

pack() {
  local build="${1:-$here/build}"
  [ -d "$build" ] || { echo "device-check: no build folder $build (run scripts/build.sh)" >&2; exit 2; }
  grep -q '^CMAKE_CUDA_COMPILER:.*nvcc' "$build/CMakeCache.txt" ||
    { echo "device-check: $build was configured without nvcc: nothing to check on a device" >&2; exit 2; }
  cmake --build "$build" --target test_deform_gpu bench_deform mechsim-cli || exit 2
  stage="$(mktemp -d)"  # global: the EXIT trap reads it
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/bin" "$stage/lib" "$stage/glibc"
  local progs=("$build/tests/core/test_deform_gpu" "$build/bench/bench_deform" "$build/app/mechsim-cli")
  cp "${progs[@]}" "$stage/bin/"
  # Every library the programs load; the C library's own parts go apart (glibc/), used only where the
  # machine's C library is too old.
  local lib
  for lib in $(ldd "${progs[@]}" | awk '/=>/ && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | sort -u); do
    case "$(basename "$lib")" in
      ld-linux*|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|libutil.so.*)
        cp -L "$lib" "$stage/glibc/" ;;
      *) cp -L "$lib" "$stage/lib/" ;;
    esac
  done
  # libcuda.so.1 (the machine's) needs these from the C library too.
  for lib in libdl.so.2 libpthread.so.0 librt.so.1; do
    [ -e "/lib/x86_64-linux-gnu/$lib" ] && cp -L "/lib/x86_64-linux-gnu/$lib" "$stage/glibc/"
  done
  ldd --version | head -1 | awk '{print $NF}' > "$stage/glibc/VERSION"
  mkdir -p "$here/.device"
  tar -C "$stage" -cf - bin lib glibc | xz -T0 -6 > "$here/.device/bundle.tar.xz.part" &&
    mv "$here/.device/bundle.tar.xz.part" "$here/.device/bundle.tar.xz" || exit 2
  echo "device-check: $(du -h "$here/.device/bundle.tar.xz" | cut -f1) in .device/bundle.tar.xz" \
       "(carry .device; glibc $(cat "$stage/glibc/VERSION"))"
}

run() {
  local out="${1:-${OUT:-$here/.device/out}}"
  mkdir -p "$out" && rm -f "$out"/{device,test_deform_gpu,deform,bench_gpu,memcheck}.log
  local b=/tmp/mechsim-device
  rm -rf "$b" && mkdir -p "$b" || exit 2
  if command -v xz >/dev/null; then
    xz -dc "$here/.device/bundle.tar.xz" | tar -C "$b" -xf - || exit 2
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
      "$here/.device/bundle.tar.xz" "$b" || exit 2
  fi
  # The machine's C library against the one the programs were built with (version sort).
  local mine built
  mine="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
  built="$(cat "$b/glibc/VERSION")"
  local cudadir
  cudadir="$(dirname "$(ldconfig -p | awk '/libcuda\.so\.1 / {print $NF; exit}')")"
  cudadir="$cudadir:/usr/local/nvidia/lib64:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local x  # how a bundled program is started
  if [ -z "${DEVICE_CHECK_BUNDLED_LOADER:-}" ] &&
     [ "$(printf '%s\n%s\n' "$built" "$mine" | sort -V | head -1)" = "$built" ]; then
    echo "device-check: C library $mine here (built with $built): the machine's loader"
    x=(env "LD_LIBRARY_PATH=$b/lib:$cudadir")
  else
    echo "device-check: C library $mine here (built with $built): the bundled loader"
    x=("$b/glibc/ld-linux-x86-64.so.2" --library-path "$b/lib:$b/glibc:$cudadir")
  fi
  export MECHSIM_MESH_READER=off  # no reader program in the bundle; the example reads no mesh file
  export MECHSIM_CACHE_DIR=off     # every run precomputes: the figures are the same in every call
  local only=",${DEVICE_CHECK_ONLY:-test_deform_gpu,deform,bench_gpu,memcheck},"
  want() { [[ "$only" == *",$1,"* ]]; }
  local status=0
  step() {  # step NAME COMMAND...: runs it, logs to $out/NAME.log, keeps the first failure's status
    local name="$1"; shift
    echo; echo "=== $name: $*"
    "$@" 2>&1 | tee -a "$out/$name.log"
    local rc=${PIPESTATUS[0]}
    echo "=== $name: exit $rc"
    [ "$status" -ne 0 ] || status=$rc
  }
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv; nproc; } 2>&1 |
    tee "$out/device.log"
  want test_deform_gpu && step test_deform_gpu timeout 150 "${x[@]}" "$b/bin/test_deform_gpu"
  local ex="$here/mechanisms/deform-flexible-link.json"
  if want deform; then
    # jgs2-jacobi (the Jacobi sweep, coarse part first) and jgs2-gs (the coloured Gauss–Seidel sweep
    # on colour subspaces, as the command line sets it up): auto, cuda and cpu.
    for method in jgs2-jacobi jgs2-gs; do
      step deform timeout 90 "${x[@]}" "$b/bin/mechsim-cli" deform "$ex" --t-end 0.2 --dt 0.01 --method $method --out "$b/deform_auto.csv"
      step deform timeout 90 "${x[@]}" "$b/bin/mechsim-cli" deform "$ex" --t-end 0.2 --dt 0.01 --method $method --backend cuda --out "$b/deform_cuda.csv"
      step deform timeout 90 "${x[@]}" "$b/bin/mechsim-cli" deform "$ex" --t-end 0.2 --dt 0.01 --method $method --backend cpu --out "$b/deform_cpu.csv"
      if [ -s "$b/deform_cuda.csv" ] && [ -s "$b/deform_cpu.csv" ]; then
        # Largest difference of any number between the device's CSV and the CPU's (same rows, same columns).
        paste -d'\n' "$b/deform_cpu.csv" "$b/deform_cuda.csv" | awk -F, -v method=$method '
          NR % 2 == 1 { n = split($0, a, ","); next }
          { for (i = 1; i <= NF; ++i) if (a[i] ~ /^-?[0-9.]/) { d = a[i] - $i; if (d < 0) d = -d; if (d > m) m = d } }
          END { printf "deform %s: largest |cpu - cuda| over the CSV: %.3g\n", method, m }' | tee -a "$out/deform.log"
      fi
      rm -f "$b/deform_cuda.csv" "$b/deform_cpu.csv"
    done
  fi
  # shellcheck disable=SC2086  # the options are words
  want bench_gpu && step bench_gpu timeout "${DEVICE_CHECK_BENCH_TIMEOUT:-420}" "${x[@]}" "$b/bin/bench_deform" ${DEVICE_CHECK_BENCH:---gpu}
  # Out-of-bounds and misaligned accesses, uninitialised device memory: the parity test under
  # compute-sanitizer (where the machine has it).
  if ! want memcheck; then
    :
  elif command -v compute-sanitizer >/dev/null; then
    step memcheck timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 "${x[@]}" "$b/bin/test_deform_gpu"
  else
    echo "device-check: no compute-sanitizer here"
  fi
  return "$status"
}

case "$cmd" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@"; exit $? ;;
  *) echo "usage: scripts/device-check.sh pack [BUILD] | run [OUTDIR]" >&2; exit 2 ;;
esac
