#!/usr/bin/env bash
# Installs, from Debian 12's packages, everything mechsim needs to build, run and test.
# Idempotent: installs only what is missing. Run as root (or with sudo available).
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libqt6openglwidgets6 qt6-charts-dev
  libgl-dev libglx-dev libegl-dev
  libeigen3-dev libassimp-dev nlohmann-json3-dev libmuparser-dev libsuitesparse-dev
  liburdfdom-dev
  libtinyxml2-dev libsdformat-dev
  libspectra-dev
  libgmsh-dev
  libccd-dev
  xvfb xauth libgl1-mesa-dri mesa-utils qt6-qpa-plugins
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
