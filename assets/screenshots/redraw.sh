#!/usr/bin/env bash
# redraw.sh draws the pictures in assets/screenshots again from the bundled
# test logs: the --snapshot pictures (Fyne's software renderer, no display
# needed) and the real window under Xvfb, at 1280×800 and 1920×1080, light
# and dark, and at scale 2. BIG=FILE adds the pictures of a big log (never
# committed). The live-*.png and profile/spans pictures are taken by hand
# (see the README) and are not redrawn here.
#
#	assets/screenshots/redraw.sh            # needs Xvfb and ImageMagick (make deps)
#	BIG=/tmp/big.eventlog assets/screenshots/redraw.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=assets/screenshots
gui=$(mktemp -d)/hecscope-gui
cli=$(dirname "$gui")/hecscope
go build -tags no_emoji -o "$gui" ./cmd/hecscope-gui
go build -o "$cli" ./cmd/hecscope
parwork=testdata/ghc-9.0.2/parwork-N2.eventlog

# The canvas as --snapshot draws it: both sizes, both themes, scale 2, a range.
for size in 1280x800 1920x1080; do
	for theme in light dark; do
		"$gui" --snapshot "$out/canvas-parwork-$size-$theme.png" --size "$size" --theme "$theme" "$parwork"
	done
done
"$gui" --snapshot "$out/canvas-parwork-1280x800-light-scale2.png" --size 640x400 --scale 2 "$parwork"
"$gui" --snapshot "$out/canvas-parwork-1920x1080-dark-scale2.png" --size 960x540 --scale 2 --theme dark "$parwork"
"$gui" --snapshot "$out/canvas-parwork-range-1280x800-light.png" --size 1280x800 --from 20ms --to 24ms "$parwork"
"$gui" --snapshot "$out/canvas-parwork-selection-1920x1080-light.png" --size 1920x1080 --select 20ms,60ms --tab Selection "$parwork"

# The views of hecscope render and the comparison.
"$cli" render "$parwork" --view timeline -o "$out/timeline-parwork-N2.png"
"$cli" render testdata/ghc-9.0.2/heap-hc.eventlog --view heap -o "$out/heap-hc.png"
"$cli" render --compare -o "$out/compare-N1-N2.png" testdata/ghc-9.0.2/parwork-N1.eventlog "$parwork"

# The real window under Xvfb: what a user sees, with the tabs below. The
# window opens at the size its settings remember (SIZE in pixels, /SCALE in
# units), on a screen larger than it by the share a window may take (92 %),
# with a black root around it that the picture is trimmed of.
display=:$((90 + RANDOM % 9))
real() { # real SIZE THEME SCALE NAME FILE...
	local size=$1 theme=$2 scale=$3 name=$4
	shift 4
	local w=${size%x*} h=${size#*x}
	local home
	home=$(mktemp -d)
	mkdir -p "$home/hecscope"
	printf '{"window.width": %s, "window.height": %s}\n' $((w / scale)) $((h / scale)) >"$home/hecscope/settings.json"
	Xvfb "$display" -screen 0 "$((w * 100 / 90))x$((h * 100 / 90))x24" -nolisten tcp >/dev/null 2>&1 &
	local xvfb=$!
	sleep 1
	DISPLAY=$display XDG_CONFIG_HOME=$home XDG_DATA_HOME=$home FYNE_THEME=$theme FYNE_SCALE=$scale "$gui" "$@" >/dev/null 2>&1 &
	local app=$!
	sleep 6
	DISPLAY=$display import -window root -trim +repage "$out/$name"
	kill "$app" "$xvfb" 2>/dev/null || true
	wait "$app" "$xvfb" 2>/dev/null || true
	rm -rf "$home"
}
for size in 1280x800 1920x1080; do
	for theme in light dark; do
		real "$size" "$theme" 1 "window-parwork-$size-$theme-real.png" "$parwork"
	done
done
real 1920x1080 light 2 window-parwork-1920x1080-light-scale2-real.png "$parwork"
real 1280x800 light 1 window-segments-1280x800-real.png testdata/ghc-9.0.2/restart4.eventlog

if [ -n "${BIG:-}" ]; then
	for size in 1280x800 1920x1080; do
		for theme in light dark; do
			"$gui" --snapshot "$out/canvas-big-$size-$theme.png" --size "$size" --theme "$theme" "$BIG"
		done
	done
	real 1920x1080 dark 1 window-big-1920x1080-dark-real.png "$BIG"
fi
