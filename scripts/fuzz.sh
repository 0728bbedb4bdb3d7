#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ with Clang (ASan + UBSan, in build-fuzz/) and runs each
# for SECONDS seconds (default 60), or for N executions each (--runs N), on a corpus seeded from
# the project's own files: the native examples and the good / bad test files, the tet-mesh test
# files, the URDF / MJCF / SDF examples and import tests, the mesh models and test meshes. A
# finding (crash, sanitizer report, hang over 10 s, an unexpected exception or a failed round trip)
# stops that harness and leaves its input as build-fuzz/crash-* / timeout-*; reproduce with
# `build-fuzz/fuzz/HARNESS FILE`. The corpora grow in build-fuzz/corpus/ across runs.
# Each harness ends with one line of its counts: executions, seconds, executions per second, edges
# covered (cov) and features (ft), corpus size, inputs added, peak memory.
# Usage: scripts/fuzz.sh [SECONDS | --runs N] [HARNESS...]   (harnesses: native tetmesh import mesh jgs2_cache)
# MECHSIM_BUILD_LOCK=FILE: the configure and build steps hold that lock (flock FILE), so that on a
# machine shared with other builds two never run at once; the fuzzing itself runs outside it.
# The harnesses run one after another, each one process (no -jobs / -workers).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit=(-max_total_time=60)
what="60 s"
if [ "${1:-}" = "--runs" ]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS | --runs N] [HARNESS...]" >&2; exit 2; }
  limit=(-runs="$2"); what="$2 executions"; shift 2
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  limit=(-max_total_time="$1"); what="$1 s"; shift
fi
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(native tetmesh import mesh jgs2_cache)
"$root/scripts/install-deps.sh" clang libomp-dev
build="${BUILD_DIR:-$root/build-fuzz}"
lock=()
[ -n "${MECHSIM_BUILD_LOCK:-}" ] && lock=(flock "$MECHSIM_BUILD_LOCK")
CC=clang CXX=clang++ "${lock[@]}" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMECHSIM_FUZZ=ON -DMECHSIM_BUILD_GUI=OFF -DMECHSIM_BUILD_TESTS=OFF -DMECHSIM_CUDA=OFF >/dev/null
"${lock[@]}" cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target "${harnesses[@]/#/fuzz_}"

# Seeds. The tet-mesh and import harnesses read their first byte as the choice of reader.
seed() {  # seed DIR PREFIX_BYTE FILE...
  local dir=$1 prefix=$2; shift 2
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    { printf "\\x$prefix"; cat "$f"; } > "$dir/seed-$(basename "$f")-$prefix"
  done
}
corpus="$build/corpus"
mkdir -p "$corpus/native"
for f in "$root"/mechanisms/*.json "$root"/mechanisms/*/*.json "$root"/tests/data/good/*.json \
         "$root"/tests/data/bad/*.json; do
  [ -f "$f" ] && cp "$f" "$corpus/native/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
done
seed "$corpus/tetmesh" 00 "$root"/models/*.msh "$root"/tests/data/meshes/*.msh "$root"/tests/data/bad/*.msh
for n in "$root"/tests/data/meshes/*.node "$root"/tests/data/bad/*.node; do
  [ -f "$n" ] || continue
  { printf '\x01'; cat "$n"; printf '\0'; cat "${n%.node}.ele" 2>/dev/null || true; } \
    > "$corpus/tetmesh/seed-$(basename "$n")"
done
printf '\x00$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n' \
  > "$corpus/tetmesh/seed-one-tet-2.2"
printf '\x00$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n' \
  > "$corpus/tetmesh/seed-one-tet-4.1"
printf '\x014 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n\0001 4 0\n1 1 2 3 4\n' > "$corpus/tetmesh/seed-one-tet-tetgen"
urdf=("$root"/mechanisms/urdf/*.urdf "$root"/tests/data/import/*.urdf "$root"/tests/data/import/real/*.urdf)
mjcf=("$root"/mechanisms/mjcf/*.xml "$root"/tests/data/import/mjcf_*.xml "$root"/tests/data/import/real/*.xml)
sdf=("$root"/mechanisms/sdf/*.sdf "$root"/tests/data/import/*.sdf "$root"/tests/data/import/real/*.sdf)
seed "$corpus/import" 00 "${urdf[@]}"
seed "$corpus/import" 01 "${mjcf[@]}"
seed "$corpus/import" 02 "${sdf[@]}"
# Mesh files (Assimp): the byte picks the extension, 0 .stl, 1 .obj, 2 .ply, 3 .gltf.
seed "$corpus/mesh" 00 "$root"/models/*.stl "$root"/tests/data/meshes/*.stl "$root"/tests/data/bad/meshes/*.stl
seed "$corpus/mesh" 01 "$root"/models/*.obj "$root"/tests/data/meshes/*.obj "$root"/tests/data/bad/meshes/*.obj
seed "$corpus/mesh" 03 "$root"/models/*.gltf
printf '\x02ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' \
  > "$corpus/mesh/seed-triangle.ply"

# The JGS2 cache decoder: a valid file's data section (the harness writes it) and the regressions.
mkdir -p "$corpus/jgs2_cache"
cp "$root"/fuzz/regressions/jgs2_cache/* "$corpus/jgs2_cache/" 2>/dev/null || true

export MECHSIM_FUZZ_BASE_DIR="$root/tests/data/meshes"
# Mesh files referenced by the inputs are read, and surfaces filled with tets, in this process,
# where the sanitizers see Assimp and Gmsh, not by the helper programs (core/io/mesh.h,
# core/io/surface_mesher.h).
export MECHSIM_MESH_READER=off MECHSIM_SURFACE_MESHER=off
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
cd "$build"
for h in "${harnesses[@]}"; do
  echo "fuzz: $h for $what"
  dict=()
  [ -f "$root/fuzz/$h.dict" ] && dict=(-dict="$root/fuzz/$h.dict")
  start=$SECONDS
  if ! "$build/fuzz/fuzz_$h" "$corpus/$h" "${dict[@]}" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 \
       -max_len=65536 -print_final_stats=1 2> "$build/fuzz_$h.log"; then
    echo "fuzz: $h FOUND A PROBLEM (log: $build/fuzz_$h.log)"; tail -30 "$build/fuzz_$h.log"; status=1
  else
    # The last status line ("#N ... cov: E ft: F corp: C/...") and the final statistics.
    stat() { sed -n "s/^stat::$1: *//p" "$build/fuzz_$h.log" | tail -1; }
    last=$(grep -E '^#[0-9]+.*cov: ' "$build/fuzz_$h.log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$last")
    echo "fuzz: $h executions $(stat number_of_executed_units) in $((SECONDS - start)) s" \
         "($(stat average_exec_per_sec)/s), cov $cov ft $ft, corpus $corp (+$(stat new_units_added))," \
         "peak $(stat peak_rss_mb) MB, no finding"
  fi
done
exit $status
