#!/usr/bin/env bash
# gen-advise.sh: build Advise.hs and write the eventlogs `hecscope advise`
# is tested on (advise-*.eventlog) to testdata/ghc-9.0.2/.
#
# Usage: testdata/haskell/gen-advise.sh
# OUT (default /tmp/hecscope-gen-advise, outside the repo) holds the binary
# and object files. Each run of the program is from an empty scratch
# directory, so the argv recorded in the log is short and holds no path.
#
#   ghc -O2 -threaded -rtsopts -eventlog Advise.hs -o $OUT/advise
#   ./advise healthy    +RTS -N2 -l -A64m -RTS   -> advise-healthy.eventlog
#   ./advise sequential +RTS -N2 -l -A64m -RTS   -> advise-sequential.eventlog
#   ./advise gc         +RTS -N1 -l -A16k -RTS   -> advise-gc.eventlog
#   ./advise sparks     +RTS -N2 -l -RTS         -> advise-sparks.eventlog
#   ./advise mvar       +RTS -N2 -l -RTS         -> advise-mvar.eventlog
#   ./advise leak       +RTS -N2 -l -RTS         -> advise-leak.eventlog
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-/tmp/hecscope-gen-advise}"
DEST="${DEST:-$REPO/testdata/ghc-9.0.2}"

mkdir -p "$OUT/build"
OUT="$(cd "$OUT" && pwd)"
case "$OUT/" in
  "$REPO"/*) echo "gen-advise.sh: OUT=$OUT is inside the repo; pick a directory outside it" >&2; exit 1 ;;
esac

(cd "$HERE" && ghc -fforce-recomp -O2 -threaded -rtsopts -eventlog -outputdir "$OUT/build" Advise.hs -o "$OUT/advise") \
  >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2; exit 1; }

run() { # mode rts-options...
  local mode="$1" dir="$OUT/scratch"; shift
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$OUT/advise" "$dir/advise"
  (cd "$dir" && ./advise "$mode" +RTS "$@" -RTS >/dev/null)
  mv "$dir/advise.eventlog" "$DEST/advise-$mode.eventlog"
  printf '%8d  %s\n' "$(stat -c %s "$DEST/advise-$mode.eventlog")" "advise-$mode.eventlog" >&2
}

run healthy -N2 -l -A64m
run sequential -N2 -l -A64m
run gc -N1 -l -A16k
run sparks -N2 -l
run mvar -N2 -l
run leak -N2 -l
rm -rf "$OUT/scratch"
