#!/usr/bin/env bash
# End-to-end: real X input into the real window. Clicks the chart with xdotool, presses Ctrl+P
# (print selection), quits with Ctrl+Q, and checks the printed selection against what a
# scripted click at the same window pixel selects. Usage: e2e_xdotool.sh SNAPSCOPE SNAPSCOPE_GEN
set -euo pipefail
app=$1 gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache XDG_CONFIG_HOME=$work/config
"$gen" -o "$work/fixture.pickle" --events 4000 --seed 7 > /dev/null
# A window pixel inside the chart, a fifth of its height above the bottom (print-view gives the chart
# rectangle; the analysis pane below the chart takes part of the window).
printf 'print-view\n' > "$work/view.txt"
chart=$("$app" "$work/fixture.pickle" --size 1200x800 --script "$work/view.txt")
chart_y=$(echo "$chart" | sed -E 's/.*"height":([0-9.]+),"width":[0-9.]+,"x":[0-9.]+,"y":([0-9.]+).*/\1 \2/')
# The first of a few heights where a scripted click selects an allocation (a pixel can fall
# between two thin polygons, and the layout moves with the panes).
x=500
for fraction in 0.8 0.75 0.85 0.7 0.9; do
  y=$(echo "$chart_y" | awk -v f="$fraction" '{ printf "%d", $2 + $1 * f }')
  printf 'click %s %s\nprint-selection\n' "$x" "$y" > "$work/script.txt"
  "$app" "$work/fixture.pickle" --size 1200x800 --script "$work/script.txt" > "$work/expected.json"
  grep -q '"elem"' "$work/expected.json" && break
done

"$app" "$work/fixture.pickle" --size 1200x800 > "$work/actual.json" &
pid=$!
# The title gains the file name once the document is loaded.
window=$(timeout 30 xdotool search --sync --name "snapscope - " | head -n 1)
sleep 0.5
# XTEST input (not XSendEvent, which GLFW ignores); focus first, as there is no window manager.
xdotool windowfocus --sync "$window"
xdotool mousemove --window "$window" "$x" "$y"
sleep 0.3
xdotool click 1
sleep 0.5
xdotool key ctrl+p
sleep 0.5
xdotool key ctrl+q
timeout 20 tail --pid=$pid -f /dev/null
wait $pid

echo "expected: $(cat "$work/expected.json")"
echo "actual:   $(cat "$work/actual.json")"
grep -q '"elem"' "$work/actual.json" || { echo "FAIL: nothing selected"; exit 1; }
cmp -s "$work/expected.json" "$work/actual.json" || { echo "FAIL: selection differs"; exit 1; }
echo PASS
