# wlslider under valgrind's lackey for one glide, its trace read by a counter as it is written
# (scripts/frame-footprint, scripts/generate-bolt-profile). Source this file.
#
#   frame_entry BINARY PATTERN     the address, under valgrind, of BINARY's first function whose
#                                  name matches PATTERN (awk regex), as 0x-hex
#   lackey_glide NAME WORK WLSLIDER COUNTER...
#                                  runs WLSLIDER under lackey at the compositor started last:
#                                  shown at 0, then one 4 s glide to 100 (under lackey a frame
#                                  takes tens of ms: some 60 frames), then "quit". COUNTER reads
#                                  the trace on stdin; its stdout goes to WORK/count. Fails (a line
#                                  on stderr, prefixed NAME) when wlslider shows no value in 60 s or
#                                  the counter fails.

# valgrind loads a position-independent executable at this address on amd64 (no randomization).
lackey_pie_base=0x108000
# wlslider's frame-callback handler: the frame callback's `done` reaches it through a libwayland
# dispatcher (Listeners.swift), whose C entry point runs once a frame.
wlslider_frame_pattern='DispatchersO13frameCallback.*To$'

frame_entry() { # binary pattern
  local found
  found=$(nm "$1" | awk -v p="$2" '$3 ~ p { print $1; exit }')
  [[ -n $found ]] || { echo "${0##*/}: no symbol matching $2 in $1" >&2; return 1; }
  printf '0x%x' $((lackey_pie_base + 0x$found))
}

lackey_glide() { # name work wlslider counter...
  local name=$1 work=$2 wlslider=$3 counter client input
  shift 3
  mkfifo "$work/trace" "$work/stdin"
  "$@" >"$work/count" <"$work/trace" &
  counter=$!
  WLSLIDER_LIBDECOR=none valgrind --tool=lackey --trace-mem=yes --log-file="$work/trace" \
    "$wlslider" --value 0 --jump-duration 4 --curve linear <"$work/stdin" >"$work/values" 2>"$work/wlslider.err" &
  client=$!
  exec {input}>"$work/stdin"
  for _ in $(seq 600); do [[ -s $work/values ]] && break; sleep 0.1; done
  if [[ ! -s $work/values ]]; then
    echo "$name: wlslider showed no value in 60 s: $(tail -1 "$work/wlslider.err")" >&2
    exec {input}>&-
    return 1
  fi
  echo 100 >&$input
  for _ in $(seq 1200); do grep -qx '100.00' "$work/values" && break; sleep 0.1; done
  echo quit >&$input
  exec {input}>&-
  wait "$client" || true
  rm -f "$work/trace" "$work/stdin"
  wait "$counter" || { echo "$name: wlslider: $(tail -2 "$work/wlslider.err" | tr '\n' ' ')" >&2; return 1; }
}
