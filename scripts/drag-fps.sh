#!/usr/bin/env bash
# Frame rate of a drag in the GUI (`mechsim --benchmark-drag`, app/main_gui.cpp) on each
# deformable example and the default four-bar, under OpenMP's default and passive wait policies,
# side by side from one run (docs/deform.md, "CPU threads"). Needs a build (scripts/build.sh) and
# xvfb-run. Usage: scripts/drag-fps.sh [FILE ...]   (default: mechanisms/deform-*.json, fourbar.json)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gui="${BUILD_DIR:-$root/build}/app/mechsim"
[ -x "$gui" ] || { echo "drag-fps: no $gui (build first: scripts/build.sh)" >&2; exit 1; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root"/mechanisms/deform-*.json "$root/mechanisms/fourbar.json")
run() {  # FILE POLICY -> "FPS|WHAT" ("failed|" when it printed no frame rate)
  local out
  if [ "$2" = default ]; then
    out=$(env -u OMP_WAIT_POLICY xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --benchmark-drag "$1" 2>/dev/null)
  else
    out=$(OMP_WAIT_POLICY="$2" xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --benchmark-drag "$1" 2>/dev/null)
  fi
  local f w
  f=$(echo "$out" | sed -n 's/^fps //p')
  w=$(echo "$out" | sed -n 's/^drag benchmark: [^,]*, \([^,]*\),.*/\1/p')
  echo "${f:-failed}|$w"
}
printf "%-28s %-26s %9s %9s %8s\n" file dragged "default" passive ratio
for f in "${files[@]}"; do
  d=$(run "$f" default)
  p=$(run "$f" passive)
  a=${d%%|*} b=${p%%|*}
  r=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", b / a; else print "-" }')
  printf "%-28s %-26s %9s %9s %8s\n" "$(basename "$f")" "${d#*|}" "$a" "$b" "$r"
done
echo "(fps: new solver frames painted per second while the cursor circles; ratio: passive / default)"
