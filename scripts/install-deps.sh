#!/usr/bin/env bash
# Installs, from Debian 12's packages, everything mechsim needs to build, run and test.
# Idempotent: installs only what is missing. Run as root (or with sudo available).
# Usage: scripts/install-deps.sh [EXTRA_PACKAGE...]   (scripts/fuzz.sh adds clang and libomp-dev)
# libopenblas0-pthread: an optimised BLAS/LAPACK that Debian's alternatives choose over the
# reference BLAS for every program, so CHOLMOD's supernodal factorisations and solves (deformable
# parts: projected Newton, JGS2's precomputation) run on blocked kernels — on the 12k-tet beam
# a Newton iteration takes 101 ms instead of 240 ms, and with the blocked solves of
# core/deform/jgs2_precompute.cpp the JGS2 precomputation 7.4 s instead of 29 s. (SuiteSparse QR on
# the small mechanism Jacobians of `bench kinematics` runs 10–20 % slower with it than with the
# reference BLAS, so that benchmark's ratios against sparse-qr grew by as much; lu-nullspace does
# not use BLAS.)
# libblas-dev: the BLAS interface core/deform calls itself (core/deform/blas.h: the selected
# inverse, the rest modes' block Krylov basis), not only through CHOLMOD.
# libspectra-dev: Spectra's shift-invert Lanczos, the baseline of `bench deform --modes`
# (bench/bench_modes.cpp; core/deform computes its modes itself, low_modes.h).
# python3-dev, pybind11-dev: the Python package (python/); python3-numpy its arrays, python3-pytest
# its tests, python3-matplotlib the worked example's figure (docs/python.md); python3-distributed
# Dask, the cluster engine of parameter studies (docs/studies.md; its test starts a scheduler and
# workers on localhost).
# libgomp1: GCC's OpenMP runtime, for the deformable solvers' parallel loops (core/deform/parallel.h;
# build-essential's compiler brings it too).
# ccache: the build compiles through it when installed (CMakeLists.txt), so that a second build of
# the same sources — another clone, CI run again — takes minutes instead of half an hour. lld: the
# linker the build uses when installed (CMakeLists.txt), several times faster than GNU ld on the
# test programs.
# libavcodec-dev libavformat-dev libswscale-dev libavutil-dev: FFmpeg's libraries, with which
# File → Record Video and `mechsim FILE --record OUT.mp4` encode H.264 into MP4 (ui/video_writer.cpp);
# libx264-164 is the H.264 encoder Debian's libavcodec59 is built with (a dependency of it already;
# named so that the encoder the videos need is visibly part of the install).
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config git ccache lld
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libqt6openglwidgets6 qt6-charts-dev
  libgl-dev libglx-dev libegl-dev
  libeigen3-dev libassimp-dev nlohmann-json3-dev libmuparser-dev libsuitesparse-dev
  libblas-dev libopenblas0-pthread libgomp1
  liburdfdom-dev
  libtinyxml2-dev libsdformat-dev
  libspectra-dev
  libgmsh-dev
  libccd-dev
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libx264-164
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib python3-distributed
  xvfb xauth libgl1-mesa-dri mesa-utils qt6-qpa-plugins
  "$@"
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
