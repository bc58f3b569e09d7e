# Helpers for scripts/e2e: the app under test, the injector, screenshots measured by the probe,
# and checks of the value stream. Source after compositors.sh; expects $bin (the tools) and $art
# (the artefact folder). Every wait here is bounded; processes are stopped by their own PIDs.

E2E_PASSED=0
E2E_FAILED=0
APP_PID=""
APP_NAME=""
INJ_PID=""
INJ_NAME=""
INJ_MARK=0
E2E_FIFO_DIR=$(mktemp -d /tmp/wlslider-e2e.XXXXXX)

section() { printf '\n== %s\n' "$1"; }
pass() { E2E_PASSED=$((E2E_PASSED + 1)); printf 'PASS  %s\n' "$1"; }
fail() { E2E_FAILED=$((E2E_FAILED + 1)); printf 'FAIL  %s\n' "$1"; }
# A step without which the rest cannot run: record it and stop (the EXIT trap cleans up).
abort() { fail "$1"; exit 1; }

# Arithmetic on decimals (bash has integers only).
add() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
half() { awk -v a="$1" 'BEGIN { print a / 2 }'; }
# Exit status 0 when actual is a number and |actual - expected| <= tolerance ("nan" is not).
near() {
  awk -v a="$1" -v e="$2" -v t="$3" 'BEGIN {
    if (a !~ /^-?[0-9]+(\.[0-9]+)?$/) exit 1
    d = a - e; if (d < 0) d = -d
    exit !(d <= t + 1e-9)
  }'
}

# ---- the app --------------------------------------------------------------------------------

# app_start NAME ARGS...: wlslider with a JSON value stream in $art/NAME.jsonl; waits (≤ 10 s)
# for the initial value line.
app_start() {
  APP_NAME=$1; shift
  "$bin/wlslider" --format json "$@" >"$art/$APP_NAME.jsonl" 2>"$art/$APP_NAME.err" &
  APP_PID=$!
  local i
  for i in $(seq 100); do
    [[ -s "$art/$APP_NAME.jsonl" ]] && return 0
    kill -0 "$APP_PID" 2>/dev/null || abort "$APP_NAME: wlslider exited at start: $(tail -3 "$art/$APP_NAME.err")"
    sleep 0.1
  done
  abort "$APP_NAME: no initial value line within 10 s"
}

# limit_check NAME PRLIMIT-OPTION: wlslider under a resource limit (prlimit --nofile=8:8,
# --as=...) glides to 100 and quits with status 0, or stops with status 1 and says why; never a
# signal, and on stderr only its own lines (libdecor, which crashes when it runs out of
# descriptors or address space, is not loaded under its minimums).
limit_check() {
  local name=$1 status=0
  (sleep 0.8; echo 100; sleep 1.2; echo quit) \
    | timeout 20 prlimit "$2" -- "$bin/wlslider" --value 0 --jump-duration 0.3 \
        >"$art/$name.out" 2>"$art/$name.err" || status=$?
  local others
  others=$(grep -cv '^wlslider: ' "$art/$name.err" || true)
  if [[ $status -eq 0 && "$(tail -1 "$art/$name.out")" == 100.00 && $others -eq 0 ]]; then
    pass "$name: glides to 100 and quits"
  elif [[ $status -eq 1 && $others -eq 0 && -s "$art/$name.err" ]]; then
    pass "$name: exit 1: $(tail -1 "$art/$name.err")"
  else
    fail "$name: exit status $status, value $(tail -1 "$art/$name.out"), stderr: $(head -c 400 "$art/$name.err" | tr '\n' '|')"
  fi
}

# full_disk_check NAME: stdout on a full disk (>/dev/full) and stdin at its end: the first value
# line fails, and with no other sink wlslider stops before its loop ever ran: one line naming the
# error, exit 1, never a signal. Under weston, libdecor's context is then ended before its plugin
# had dispatched anything (it died of SIGSEGV in wl_proxy_destroy before it waited for that).
full_disk_check() {
  local name=$1 status=0
  timeout 10 "$bin/wlslider" --value 25 >/dev/full </dev/null 2>"$art/$name.err" || status=$?
  local lines
  lines=$(wc -l <"$art/$name.err")
  if [[ $status -eq 1 && $lines -eq 1 ]] && grep -q 'No space left on device' "$art/$name.err"; then
    pass "$name: exit 1: $(cat "$art/$name.err")"
  else
    fail "$name: exit status $status, stderr ($lines lines): $(head -c 400 "$art/$name.err" | tr '\n' '|')"
  fi
}

# stall_check NAME PID: a 2 s glide from stdin while the compositor (PID) is stopped (SIGSTOP) for
# 1.5 s of it, so that no frame callback comes: the value lines go on from the late-callback
# timer, reach 100, and wlslider quits with 0. The timer fires 1.5 to 3.5 frames after the last
# callback was asked for (58 ms at 60 Hz), then lines come every frame: never more than 65 ms apart
# by their own stamps.
stall_check() {
  local name=$1 pid=$2 status=0 report
  (sleep 0.8; echo 100; sleep 3.5; echo quit) \
    | WLSLIDER_LIBDECOR=none "$bin/wlslider" --value 0 --jump-duration 2 --format json \
        >"$art/$name.jsonl" 2>"$art/$name.err" &
  local app=$!
  sleep 1.3
  kill -STOP "$pid"
  sleep 1.5
  kill -CONT "$pid"
  wait "$app" || status=$?
  report=$(awk -F'[:,]' -v status="$status" '
    { t = $2 + 0; v = $4 + 0 }
    NR == 2 { start = t }
    NR > 2 && !done { gap = t - last; if (gap > worst) worst = gap }
    NR >= 2 && v >= 100 { done = 1 }
    { last = t; lastValue = v; n++ }
    END {
      ok = status == 0 && n > 60 && done && lastValue == 100 && worst <= 65
      printf "%s|%d lines, longest gap %d ms while gliding, last value %s, exit %d", ok ? "PASS" : "FAIL", n, worst, lastValue, status
    }' "$art/$name.jsonl")
  [[ -s "$art/$name.err" ]] && report="FAIL|stderr: $(head -c 300 "$art/$name.err" | tr '\n' '|')"
  report_result "$name" "$report"
}

# Without screenshots (KWin) the only sign of a mapped window is time: the initial value line
# comes after the first configure; give the compositor a moment to show it.
app_wait_mapped() { sleep 0.5; }

# Stops the app with SIGTERM and checks that it exits 0 (≤ 3 s, then SIGKILL).
app_stop() {
  [[ -n "$APP_PID" ]] || return 0
  kill -TERM "$APP_PID" 2>/dev/null || true
  local i status=0
  for i in $(seq 30); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$APP_PID" 2>/dev/null; then
    kill -KILL "$APP_PID" 2>/dev/null || true
    fail "$APP_NAME: wlslider did not exit within 3 s of SIGTERM"
  fi
  wait "$APP_PID" 2>/dev/null || status=$?
  if [[ $status -eq 0 ]]; then pass "$APP_NAME: wlslider exits 0 on SIGTERM"; else fail "$APP_NAME: wlslider exit status $status on SIGTERM: $(tail -2 "$art/$APP_NAME.err")"; fi
  APP_PID=""
}

# ---- the injector ---------------------------------------------------------------------------

# inject_start NAME [TOOL]: one long-lived injector (wlslider-inject unless TOOL, e.g. the mutter
# one) reading from a FIFO on fd 3 (KWin keeps its seat's touch capability only while the injector
# stays connected; mutter closes its input session when the injector's D-Bus connection goes).
inject_start() {
  INJ_NAME=$1
  local tool=${2:-$bin/wlslider-inject}
  local fifo=$E2E_FIFO_DIR/$INJ_NAME.fifo
  rm -f "$fifo"; mkfifo "$fifo"
  "$tool" <"$fifo" >"$art/$INJ_NAME.inject.out" 2>"$art/$INJ_NAME.inject.err" &
  INJ_PID=$!
  exec 3>"$fifo"
  : >"$art/$INJ_NAME.inject.txt"
}

# inject LINE...: sends command lines (and keeps a copy in $art/NAME.inject.txt).
inject() {
  printf '%s\n' "$@" >&3
  printf '%s\n' "$@" >>"$art/$INJ_NAME.inject.txt"
}

# Waits (≤ 5 s) until the injector has sent everything and the compositor has answered; this
# includes the injector's 300 ms settle time after it connects.
inject_sync() {
  INJ_MARK=$((INJ_MARK + 1))
  inject "sync" "echo synced $INJ_MARK"
  local i
  for i in $(seq 100); do
    grep -qx "synced $INJ_MARK" "$art/$INJ_NAME.inject.out" 2>/dev/null && return 0
    kill -0 "$INJ_PID" 2>/dev/null || abort "$INJ_NAME: wlslider-inject failed: $(tail -2 "$art/$INJ_NAME.inject.err")"
    sleep 0.05
  done
  abort "$INJ_NAME: wlslider-inject did not reach mark $INJ_MARK within 5 s"
}

# Ends the injector's input and waits (≤ 3 s) for it to exit.
inject_stop() {
  [[ -n "$INJ_PID" ]] || return 0
  exec 3>&-
  local i status=0
  for i in $(seq 30); do kill -0 "$INJ_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$INJ_PID" 2>/dev/null && kill -KILL "$INJ_PID" 2>/dev/null
  wait "$INJ_PID" 2>/dev/null || status=$?
  [[ $status -eq 0 ]] || fail "$INJ_NAME: wlslider-inject exit status $status: $(tail -2 "$art/$INJ_NAME.inject.err")"
  INJ_PID=""
}

# Waits (≤ 3 s) for the app to exit on its own and checks that the status is 0.
app_wait_exit() {
  local name=$1 i status=0
  for i in $(seq 30); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$APP_PID" 2>/dev/null; then
    kill -KILL "$APP_PID" 2>/dev/null || true
    wait "$APP_PID" 2>/dev/null || true
    fail "$name: wlslider still running after 3 s"
  else
    wait "$APP_PID" 2>/dev/null || status=$?
    if [[ $status -eq 0 ]]; then pass "$name: wlslider exited with status 0"; else fail "$name: exit status $status: $(tail -2 "$art/$APP_NAME.err")"; fi
  fi
  APP_PID=""
}

# ---- decorations, memory and CPU of the running app -----------------------------------------

# libdecor_check NAME yes|no: whether libdecor is mapped into the running app (/proc/PID/maps).
libdecor_check() {
  local maps count
  maps=$(cat "/proc/$APP_PID/maps" 2>/dev/null) || { fail "$1: no /proc/$APP_PID/maps"; return; }
  count=$(grep -c 'libdecor' <<<"$maps" || true)
  if [[ $2 == yes && $count -gt 0 ]] || [[ $2 == no && $count -eq 0 ]]; then
    pass "$1: $count libdecor mappings in /proc/PID/maps"
  else
    fail "$1: $count libdecor mappings in /proc/PID/maps, expected ${2/yes/some}"
  fi
}

# decoration_log_check NAME APP: the app's protocol log (WAYLAND_DEBUG=1 on its stderr) shows
# zxdg_toplevel_decoration_v1.configure with mode 2, server-side.
decoration_log_check() {
  local line
  line=$(grep -m1 -E 'zxdg_toplevel_decoration_v1@[0-9]+\.configure\(' "$art/$2.err" || true)
  if [[ $line =~ configure\(2\) ]]; then pass "$1: ${line#*] }"; else fail "$1: no server-side configure in the protocol log (${line:-none})"; fi
}

# value_check NAME APP MARK VALUE: the last line after MARK is at VALUE ± 0.05.
value_check() {
  local last
  last=$(stream_after "$2" "$3" | tail -1 | cut -d' ' -f2)
  if near "$last" "$4" 0.05; then pass "$1: last value $last"; else fail "$1: last value ${last:-none}, expected $4"; fi
}

# idle_check NAME: the app uses under 20 ms of CPU in 2 s (all threads, /proc/PID/task/*/schedstat).
idle_check() {
  local before after
  cpu_ns() { cat /proc/"$APP_PID"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
  before=$(cpu_ns); sleep 2; after=$(cpu_ns)
  local ms; ms=$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f", (b - a) / 1e6 }')
  if awk -v m="$ms" 'BEGIN { exit !(m < 20) }'; then pass "$1: $ms ms of CPU in 2 s"; else fail "$1: $ms ms of CPU in 2 s (limit 20)"; fi
}

# ---- screenshots and the probe --------------------------------------------------------------

# probe_get FILE KEY...: the values on one line, space-separated.
probe_get() {
  local file=$1; shift
  local IFS=,
  "$bin/wlslider-probe" --get "$*" "$file" | tr '\n' ' '
  echo
}

# Screenshots until the probe finds the slider (≤ 5 s): the first frame may not be on screen yet.
shot_until_slider() {
  local file=$1 i
  for i in $(seq 50); do
    if screenshot "$file" 2>/dev/null && "$bin/wlslider-probe" --get fraction "$file" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.1
  done
  abort "no slider in the screenshot $file within 5 s: $("$bin/wlslider-probe" "$file" 2>&1 | tail -1)"
}

# probe_check NAME FILE KEY EXPECTED TOLERANCE
probe_check() {
  local name=$1 file=$2 key=$3 expected=$4 tolerance=$5 value
  if ! value=$("$bin/wlslider-probe" --get "$key" "$file" 2>&1); then
    fail "$name: $value"
  elif near "$value" "$expected" "$tolerance"; then
    pass "$name: $key = $value (expected $expected ± $tolerance)"
  else
    fail "$name: $key = $value, expected $expected ± $tolerance ($(basename "$file"))"
  fi
}

# track_point FILE FRACTION: "x y" in image pixels of the point on the track's centre line where
# the thumb's centre stands at FRACTION (the thumb travels between the centres of the end caps).
track_point() {
  read -r orientation start end thick tx ty h < <(probe_get "$1" orientation track.start track.end track.thickness thumb.x thumb.y image.height)
  awk -v o="$orientation" -v s="$start" -v e="$end" -v t="$thick" -v f="$2" -v tx="$tx" -v ty="$ty" -v h="$h" 'BEGIN {
    a = s + t / 2 + f * (e - s - t)
    if (o == "horizontal") print a, ty; else print tx, h - a
  }'
}

# ---- the value stream -----------------------------------------------------------------------

# The number of value lines the app has printed so far: later checks look at what follows.
stream_mark() { wc -l <"$art/$1.jsonl"; }

# "t value phase" lines printed after MARK.
stream_after() {
  tail -n +"$(($2 + 1))" "$art/$1.jsonl" |
    sed -nE 's/.*"t":([0-9]+),"value":([-0-9.]+),"phase":"([a-z]+)".*/\1 \2 \3/p'
}

# glide_check NAME APP MARK PHASE FROM TO: the first line after MARK has PHASE at FROM, the values
# then move monotonically to TO through at least 5 values in between (a glide, not a jump) in
# 0.15-0.5 s (the jump duration is 0.25 s).
glide_check() {
  local name=$1 report
  report=$(stream_after "$2" "$3" | awk -v phase="$4" -v from="$5" -v to="$6" '
    function abs(x) { return x < 0 ? -x : x }
    NR == 1 { t0 = $1; first = $2; firstPhase = $3; last = $2 }
    NR > 1 && reached == "" {
      if ((to - from) * ($2 - last) < -1e-9) backwards++
      if (abs($2 - from) > 1 && abs($2 - to) > 1) between++
      if (abs($2 - to) <= 0.5) reached = $1 - t0
      last = $2
    }
    END {
      ok = firstPhase == phase && abs(first - from) <= 0.5 && reached != "" && between >= 5 && backwards == 0 && reached >= 150 && reached <= 500
      printf "%s|first line %s at %s, %d values in between, %s, %d steps backwards", ok ? "PASS" : "FAIL", firstPhase, first, between, reached == "" ? "never reached " to : "reached " to " after " reached " ms", backwards
    }')
  report_result "$name" "$report"
}

# drag_check NAME APP MARK TO: the values after MARK move (phase moved, at least 3 lines) and end at TO ± 1.5.
drag_check() {
  local report
  report=$(stream_after "$2" "$3" | awk -v to="$4" '
    function abs(x) { return x < 0 ? -x : x }
    { n++; last = $2; if ($3 == "moved") moved++; else other = other " " $3 }
    END {
      ok = moved >= 3 && other == "" && abs(last - to) <= 1.5
      printf "%s|%d lines, %d of phase moved%s, last value %s", ok ? "PASS" : "FAIL", n, moved, other == "" ? "" : " (also" other ")", last
    }')
  report_result "$1" "$report"
}

# phase_check NAME APP MARK PHASE VALUE: a line of PHASE after MARK, at VALUE ± 1.5.
phase_check() {
  local report
  report=$(stream_after "$2" "$3" | awk -v phase="$4" -v want="$5" '
    function abs(x) { return x < 0 ? -x : x }
    $3 == phase && found == "" { found = $2 }
    END {
      ok = found != "" && abs(found - want) <= 1.5
      printf "%s|%s", ok ? "PASS" : "FAIL", found == "" ? "no line of phase " phase : "phase " phase " at " found
    }')
  report_result "$1" "$report"
}

# cancel_check NAME APP MARK BACK PEAK: a gesture begins at BACK and glides to PEAK; after the
# cancelled line the values fall monotonically back to BACK ± 0.5 through at least 2 values in
# between (a glide, not a jump). The longest pause between frames after the cancel is reported:
# KWin 5.27 sends no frame callback for ~180 ms after a fake-input touch cancel, which swallows
# most of the 0.25 s glide's frames.
cancel_check() {
  local report
  report=$(stream_after "$2" "$3" | awk -v back="$4" -v peak="$5" '
    function abs(x) { return x < 0 ? -x : x }
    NR == 1 { firstPhase = $3; first = $2 }
    { if ($2 > max) max = $2; last = $2 }
    $3 == "cancelled" && cancelledAt == "" { cancelledAt = $2; tc = $1; tp = $1; previous = $2; next }
    cancelledAt != "" {
      if (abs($2 - back) > 1 && abs($2 - peak) > 1) between++
      if ((peak - back) * ($2 - previous) > 1e-9) backwards++
      if (abs($2 - back) <= 0.5 && tb == "") tb = $1 - tc
      if ($1 - tp > gap) gap = $1 - tp
      tp = $1; previous = $2
    }
    END {
      ok = firstPhase == "began" && abs(first - back) <= 0.5 && abs(max - peak) <= 1 && cancelledAt != "" && between >= 2 && backwards == 0 && abs(last - back) <= 0.5
      printf "%s|began at %s, peak %s, %s, %d values gliding back (%d backwards), last %s%s, longest frame gap %d ms", ok ? "PASS" : "FAIL", first, max,
        cancelledAt == "" ? "no cancelled line" : "cancelled at " cancelledAt, between, backwards, last, tb == "" ? "" : " (back after " tb " ms)", gap
    }')
  report_result "$1" "$report"
}

report_result() { # name "PASS|details"
  if [[ ${2%%|*} == PASS ]]; then pass "$1: ${2#*|}"; else fail "$1: ${2#*|}"; fi
}

# ---- the end --------------------------------------------------------------------------------

e2e_cleanup() {
  local status=$?
  [[ -n "$INJ_PID" ]] && { exec 3>&- 2>/dev/null || true; kill "$INJ_PID" 2>/dev/null || true; wait "$INJ_PID" 2>/dev/null || true; }
  [[ -n "$APP_PID" ]] && { kill "$APP_PID" 2>/dev/null || true; wait "$APP_PID" 2>/dev/null || true; }
  stop_compositors
  rm -rf "$E2E_FIFO_DIR"
  [[ $status -eq 0 ]] || printf 'e2e: stopped early (status %d); artefacts in %s\n' "$status" "$art"
}

summary() {
  printf '\n== e2e: %d passed, %d failed in %d s; artefacts in %s\n' "$E2E_PASSED" "$E2E_FAILED" "$((SECONDS - started))" "$art"
  [[ $E2E_FAILED -eq 0 ]]
}
