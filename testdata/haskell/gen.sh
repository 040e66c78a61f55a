#!/usr/bin/env bash
# gen.sh: build the Haskell test workloads and generate GHC 9.0.2 eventlogs.
#
# Usage:
#   testdata/haskell/gen.sh [all]   build + tiny/small logs + big logs, in $OUT
#   testdata/haskell/gen.sh small   build + the small logs committed to the repo,
#                                   written to testdata/ghc-9.0.2/
#   testdata/haskell/gen.sh big     build + big.eventlog and big200.eventlog
#   testdata/haskell/gen.sh build   build only
#   testdata/haskell/gen.sh rts     build RtsStats (threaded and not) and
#                                   HeapWork (profiled); the logs with their
#                                   `+RTS -s` output (rts-*.eventlog,
#                                   rts-*.s.txt) written to testdata/ghc-9.0.2/
#   testdata/haskell/gen.sh verify  check $OUT/big*.eventlog with the reference
#                                   parser: event counts by kind (refshow | awk),
#                                   refread --check (ghc-events count == raw framing
#                                   count, end marker at EOF), and RefRead wall
#                                   time / peak RSS (/usr/bin/time -v), both
#                                   streaming (default) and with --hold
# OUT defaults to /tmp/hecscope-gen (must be outside the repo).  Works from any cwd.
#
# What it runs (GHC 9.0.2, Debian 12 packages ghc, ghc-prof,
# libghc-ghc-events-dev, libghc-parallel-dev):
# (all builds use -fforce-recomp and run from the source's own directory)
#   ghc -O2 -threaded -rtsopts -eventlog ParWork.hs            -o $OUT/parwork
#   ghc -O2 -threaded -rtsopts -eventlog HeapWork.hs           -o $OUT/heapwork
#   ghc -O2 -prof -fprof-auto -rtsopts -eventlog HeapWork.hs   -o $OUT/heapwork-prof
#   ghc -O2 -rtsopts -package ghc-events RefRead.hs            -o $OUT/refread
#   ghc -O2 -package ghc-events /work/shared/tools/RefShow.hs  -o $OUT/refshow  (if present)
#   (object files go to $OUT/build/<name>, never next to the sources)
#
#   ParWork runs (in a scratch dir, output renamed afterwards):
#     ./parwork SCALE +RTS -N2 -lf -A256k -RTS
#       -lf    = default event classes (-l: scheduler, GC, sampled sparks, user)
#                plus full-detail spark events (create/run/steal/fizzle/dud/GC/overflow)
#       -A256k = small nursery, so GCs are frequent
#     (SCALE = number of rounds, ~40 KB of log and ~16 ms each with -N2;
#      the defaults below can be overridden from the environment)
#     tiny.eventlog          SCALE=$TINY_SCALE   (default 3: ~85 KB)
#     parwork-N1.eventlog    SCALE=$SMALL_SCALE  (default 7) with -N1 instead of -N2
#     parwork-N2.eventlog    SCALE=$SMALL_SCALE  (default 7: ~200 KB)
#     big.eventlog           SCALE=$BIG_SCALE    (default 2850; must be >= 100 MB, aim ~120 MB)
#     big200.eventlog        SCALE=$BIG200_SCALE (default 5000; must be >= 200 MB, aim ~210 MB)
#     (a big log that comes out under its minimum is regenerated with a
#      proportionally larger SCALE, at most 3 tries)
#   HeapWork runs:
#     ./heapwork 1 +RTS -hT -i0.02 -l -N2 -RTS          -> heap-hT.eventlog, heap-hT.hp
#     ./heapwork-prof 1 +RTS -hc -i0.02 -l -p -RTS      -> heap-hc.eventlog, heap-hc.hp
#                                                        (heap-hc.prof kept in $OUT only)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-/tmp/hecscope-gen}"
MODE="${1:-all}"

TINY_SCALE="${TINY_SCALE:-3}"
SMALL_SCALE="${SMALL_SCALE:-7}"
BIG_SCALE="${BIG_SCALE:-2850}"
BIG200_SCALE="${BIG200_SCALE:-5000}"
BIG_MIN=$((100 * 1000 * 1000))
BIG200_MIN=$((200 * 1000 * 1000))
PARWORK_RTS=(-lf -A256k)

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
case "$OUT/" in
  "$REPO"/*) echo "gen.sh: OUT=$OUT is inside the repo; pick a directory outside it" >&2; exit 1 ;;
esac

size_of() { stat -c %s "$1"; }
say() { printf '%s\n' "$*" >&2; }

build_one() { # name src extra-flags...
  local name="$1" src="$2"; shift 2
  mkdir -p "$OUT/build/$name"
  say "building $name"
  # compiled from inside the source dir so recorded source locations (cost
  # centres in the profiled build) read "HeapWork.hs:..." not a full path
  (cd "$(dirname "$src")" &&
     ghc -fforce-recomp "$@" -outputdir "$OUT/build/$name" "$(basename "$src")" -o "$OUT/$name") \
    >"$OUT/build/$name.log" 2>&1 || { cat "$OUT/build/$name.log" >&2; exit 1; }
}

build() {
  build_one parwork "$HERE/ParWork.hs" -O2 -threaded -rtsopts -eventlog
  build_one heapwork "$HERE/HeapWork.hs" -O2 -threaded -rtsopts -eventlog
  build_one heapwork-prof "$HERE/HeapWork.hs" -O2 -prof -fprof-auto -rtsopts -eventlog
  build_one refread "$HERE/RefRead.hs" -O2 -rtsopts -package ghc-events
  if [ -f /work/shared/tools/RefShow.hs ]; then
    build_one refshow /work/shared/tools/RefShow.hs -O2 -package ghc-events
  fi
}

# run_in_scratch DIR PROG ARGS... : run a program from an empty scratch dir
# so its default outputs (<prog>.eventlog, <prog>.hp, <prog>.prof) land there
# and the recorded argv stays short and path-free.
run_in_scratch() {
  local dir="$1" prog="$2"; shift 2
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$OUT/$prog" "$dir/$prog"
  (cd "$dir" && "./$prog" "$@" >stdout.txt)
}

parwork_log() { # dest scale N
  local dest="$1" scale="$2" n="$3" dir="$OUT/scratch/parwork"
  say "parwork scale=$scale -N$n -> $dest"
  run_in_scratch "$dir" parwork "$scale" +RTS -N"$n" "${PARWORK_RTS[@]}" -RTS
  mv "$dir/parwork.eventlog" "$dest"
}

big_log() { # dest scale min_bytes
  local dest="$1" scale="$2" min="$3" try size
  for try in 1 2 3; do
    parwork_log "$dest" "$scale" 2
    size=$(size_of "$dest")
    if [ "$size" -ge "$min" ]; then return 0; fi
    say "$dest is $size bytes < $min; retrying with a larger scale"
    scale=$(( scale * min / size * 105 / 100 + 1 ))
  done
  echo "gen.sh: could not reach $min bytes for $dest" >&2; exit 1
}

heap_logs() { # destdir
  local d="$1" dir="$OUT/scratch/heap"
  say "heapwork -hT -> $d/heap-hT.*"
  run_in_scratch "$dir" heapwork 1 +RTS -hT -i0.02 -l -N2 -RTS
  mv "$dir/heapwork.eventlog" "$d/heap-hT.eventlog"
  mv "$dir/heapwork.hp" "$d/heap-hT.hp"
  say "heapwork-prof -hc -> $d/heap-hc.*"
  run_in_scratch "$dir" heapwork-prof 1 +RTS -hc -i0.02 -l -p -RTS
  mv "$dir/heapwork-prof.eventlog" "$d/heap-hc.eventlog"
  mv "$dir/heapwork-prof.hp" "$d/heap-hc.hp"
  mv "$dir/heapwork-prof.prof" "$OUT/heap-hc.prof"
}

small_logs() { # destdir
  local d="$1"
  mkdir -p "$d"
  parwork_log "$d/parwork-N1.eventlog" "$SMALL_SCALE" 1
  parwork_log "$d/parwork-N2.eventlog" "$SMALL_SCALE" 2
  heap_logs "$d"
  local f
  for f in "$d"/parwork-N1.eventlog "$d"/parwork-N2.eventlog "$d"/heap-*.eventlog "$d"/heap-*.hp; do
    if [ "$(size_of "$f")" -gt $((300 * 1024)) ]; then
      say "WARNING: $f is larger than 300 KB (heap logs grow when the machine is loaded; rerun)"
    fi
  done
}

build_rts() {
  build_one rtsstats "$HERE/RtsStats.hs" -O2 -threaded -rtsopts -eventlog
  build_one rtsstats-nt "$HERE/RtsStats.hs" -O2 -rtsopts -eventlog
  build_one heapwork-prof "$HERE/HeapWork.hs" -O2 -prof -fprof-auto -rtsopts -eventlog
}

# rts_log DEST NAME PROG ARGS... : run PROG with -l -s, keeping its eventlog
# as DEST/NAME.eventlog and what -s wrote (to stderr) as DEST/NAME.s.txt.
rts_log() {
  local d="$1" name="$2" prog="$3" dir="$OUT/scratch/rts"; shift 3
  say "$prog $* -> $d/$name.*"
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$OUT/$prog" "$dir/$prog"
  (cd "$dir" && "./$prog" "$@" >stdout.txt 2>stderr.txt)
  mv "$dir/$prog.eventlog" "$d/$name.eventlog"
  mv "$dir/stderr.txt" "$d/$name.s.txt"
}

rts_logs() { # destdir
  local d="$1"
  rts_log "$d" rts-N1-A64m rtsstats 16 2000 +RTS -N1 -A64m -l -s -RTS
  rts_log "$d" rts-N2-A1m rtsstats 16 2000 +RTS -N2 -A1m -l -s -RTS
  rts_log "$d" rts-N4-A64k rtsstats 2 1000 +RTS -N4 -A64k -l -s -RTS
  rts_log "$d" rts-nt-A1m rtsstats-nt 16 2000 +RTS -A1m -l -s -RTS
  rts_log "$d" rts-prof-hc heapwork-prof 1 +RTS -hc -l -s -RTS
}

report() {
  local f
  for f in "$@"; do
    if [ -f "$f" ]; then printf '%12d  %s\n' "$(size_of "$f")" "$f"; fi
  done
}

# counts_by_kind: refshow output on stdin -> "count kind" lines, most frequent
# first; a kind is the event text with its numbers and quoted strings blanked.
counts_by_kind() {
  awk '/^Events:/ { body = 1; next }
       body && NF {
         sub(/^ *[0-9]+: /, ""); sub(/^cap [0-9]+: /, "")
         gsub(/"[^"]*"/, "\"..\""); gsub(/0x[0-9a-f]+/, "X"); gsub(/[0-9]+/, "#")
         n[$0]++
       }
       END { for (k in n) printf "%10d  %s\n", n[k], k }' | sort -rn
}

verify() {
  local f base
  for f in "$OUT"/big.eventlog "$OUT"/big200.eventlog; do
    [ -f "$f" ] || { say "missing $f (run: $0 big)"; exit 1; }
    base="${f%.eventlog}"
    say "refshow $f | awk  -> $base.kinds.txt"
    "$OUT/refshow" "$f" | counts_by_kind >"$base.kinds.txt"
    say "refread --check $f  -> $base.check.txt"
    "$OUT/refread" --check "$f" >"$base.check.txt" ||
      { cat "$base.check.txt" >&2; say "CHECK FAILED for $f"; exit 1; }
    say "/usr/bin/time -v refread $f  -> $base.refread.txt"
    /usr/bin/time -v "$OUT/refread" "$f" >"$base.refread.txt" 2>&1
    printf '%s: %s, %s, %s\n' "$f" "$(grep -E '^events:' "$base.refread.txt")" \
      "$(grep -E '^framing-block-markers:' "$base.check.txt")" "$(grep -E '^check:' "$base.check.txt")"
    grep -E 'Elapsed \(wall|Maximum resident' "$base.refread.txt" | sed 's/^\t*/    streaming: /'
    say "/usr/bin/time -v refread --hold $f  -> $base.refread-hold.txt"
    /usr/bin/time -v "$OUT/refread" --hold "$f" >"$base.refread-hold.txt" 2>&1
    grep -E 'Elapsed \(wall|Maximum resident' "$base.refread-hold.txt" | sed 's/^\t*/    hold:      /'
    head -15 "$base.kinds.txt"
  done
}

case "$MODE" in
  verify)
    [ -x "$OUT/refread" ] && [ -x "$OUT/refshow" ] || build
    verify ;;
  build)
    build ;;
  rts)
    build_rts
    rts_logs "$REPO/testdata/ghc-9.0.2"
    report "$REPO"/testdata/ghc-9.0.2/rts-*.eventlog ;;
  small)
    build
    small_logs "$REPO/testdata/ghc-9.0.2"
    report "$REPO"/testdata/ghc-9.0.2/{parwork-N1,parwork-N2,heap-hT,heap-hc}.eventlog \
           "$REPO"/testdata/ghc-9.0.2/heap-{hT,hc}.hp ;;
  big)
    build
    big_log "$OUT/big.eventlog" "$BIG_SCALE" "$BIG_MIN"
    big_log "$OUT/big200.eventlog" "$BIG200_SCALE" "$BIG200_MIN"
    report "$OUT"/big.eventlog "$OUT"/big200.eventlog ;;
  all)
    build
    parwork_log "$OUT/tiny.eventlog" "$TINY_SCALE" 2
    small_logs "$OUT/small"
    big_log "$OUT/big.eventlog" "$BIG_SCALE" "$BIG_MIN"
    big_log "$OUT/big200.eventlog" "$BIG200_SCALE" "$BIG200_MIN"
    report "$OUT"/tiny.eventlog "$OUT"/small/* "$OUT"/big.eventlog "$OUT"/big200.eventlog ;;
  *)
    echo "usage: $0 [all|small|big|build|verify|rts]" >&2; exit 2 ;;
esac
rm -rf "$OUT/scratch"
