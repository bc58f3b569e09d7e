# Headless compositors for wlslider's demo, end-to-end tests and benchmarks. Source this file.
#
#   start_weston NAME [W H]   headless weston (pixman, debug protocol for screenshots)
#   start_sway NAME [W H]     headless sway (run as an unprivileged user: sway refuses root)
#   start_kwin NAME [W H]     KWin --virtual with a session bus (fake input allowed)
#   start_mutter NAME [W H]   mutter --headless with a session bus, PipeWire and WirePlumber (input
#                             and screenshots through Tools/mutter-inject, over D-Bus)
#   screenshot FILE           a PNG of the whole output of the compositor started last
#   stop_compositors          kill everything started here
#
# Each compositor gets a private XDG_RUNTIME_DIR (mode 0700) and its own socket; the functions
# export WAYLAND_DISPLAY and XDG_RUNTIME_DIR for the clients that follow. Started processes are
# killed by PID and their temporary folders removed by stop_compositors; with WLS_ARTIFACTS set to
# a folder, each compositor's log is copied there first (as <kind>-<name>.log).

WLS_PIDS=()
WLS_DIRS=()
WLS_LOGS=()
WLS_KIND=""
WLS_USER=wlslider-test

_wls_runtime_dir() {
  XDG_RUNTIME_DIR=$(mktemp -d /tmp/wlslider-rt.XXXXXX)
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  WLS_DIRS+=("$XDG_RUNTIME_DIR")
}

_wls_wait_socket() { # socket, pid, log
  local i
  for i in $(seq 1 200); do
    [[ -S "$XDG_RUNTIME_DIR/$1" ]] && return 0
    kill -0 "$2" 2>/dev/null || { echo "compositor exited early; its log:" >&2; tail -20 "$3" >&2; return 1; }
    sleep 0.05
  done
  echo "compositor socket $1 did not appear in 10 s; its log:" >&2
  tail -20 "$3" >&2
  return 1
}

start_weston() { # name [width height]
  local name=$1 w=${2:-800} h=${3:-600}
  _wls_runtime_dir
  WLS_LOG="$XDG_RUNTIME_DIR/weston.log"
  # No panel: desktop-shell places each window at a random spot, and one that lands against the
  # panel's dark bar is hard to tell from it in a screenshot; nor does a panel clock redraw
  # during a benchmark.
  printf '[shell]\npanel-position=none\n' >"$XDG_RUNTIME_DIR/weston.ini"
  # --idle-time=0: weston stops sending frame callbacks once its idle timer fires (300 s).
  weston --config="$XDG_RUNTIME_DIR/weston.ini" --debug --backend=headless-backend.so --use-pixman \
         --socket="$name" --idle-time=0 --width="$w" --height="$h" >"$WLS_LOG" 2>&1 &
  WLS_PIDS+=($!)
  WLS_LOGS+=("$WLS_LOG:weston-$name.log")
  WLS_KIND=weston
  export WAYLAND_DISPLAY=$name
  _wls_wait_socket "$name" $! "$WLS_LOG"
}

start_sway() { # name [width height] [extra config lines]
  local name=$1 w=${2:-800} h=${3:-600} extra=${4:-}
  id -u "$WLS_USER" >/dev/null 2>&1 || useradd -m "$WLS_USER"
  _wls_runtime_dir
  chown "$WLS_USER" "$XDG_RUNTIME_DIR"
  WLS_LOG="$XDG_RUNTIME_DIR/sway.log"
  printf 'output HEADLESS-1 resolution %sx%s\n%s\n' "$w" "$h" "$extra" >"$XDG_RUNTIME_DIR/sway.conf"
  chmod 644 "$XDG_RUNTIME_DIR/sway.conf"
  runuser -u "$WLS_USER" -- env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" WLR_BACKENDS=headless \
      WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 WAYLAND_DISPLAY="$name" \
      sway -c "$XDG_RUNTIME_DIR/sway.conf" >"$WLS_LOG" 2>&1 &
  WLS_PIDS+=($!)
  WLS_LOGS+=("$WLS_LOG:sway-$name.log")
  WLS_KIND=sway
  # sway names its socket wayland-N; find it.
  local i sock=""
  for i in $(seq 1 200); do
    sock=$(cd "$XDG_RUNTIME_DIR" && ls wayland-* 2>/dev/null | grep -v lock | head -1 || true)
    [[ -n "$sock" && -S "$XDG_RUNTIME_DIR/$sock" ]] && break
    sleep 0.05
  done
  [[ -n "$sock" ]] || { echo "sway did not start; its log:" >&2; tail -20 "$WLS_LOG" >&2; return 1; }
  export WAYLAND_DISPLAY=$sock
}

start_kwin() { # name [width height] [scale]
  local name=$1 w=${2:-800} h=${3:-600} scale=${4:-1}
  _wls_runtime_dir
  WLS_LOG="$XDG_RUNTIME_DIR/kwin.log"
  # The packaged binary carries a file capability this kind of sandbox refuses to exec.
  local bin; bin=$(mktemp -d /tmp/wlslider-kwin.XXXXXX)
  WLS_DIRS+=("$bin")
  cp /usr/bin/kwin_wayland "$bin/"
  dbus-daemon --session --address="unix:path=$XDG_RUNTIME_DIR/bus" --nofork --nopidfile \
      >"$XDG_RUNTIME_DIR/dbus.log" 2>&1 &
  WLS_PIDS+=($!)
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
  # KWIN_WAYLAND_NO_PERMISSION_CHECKS advertises the restricted fake-input global to the injector.
  KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 TMPDIR="$XDG_RUNTIME_DIR" "$bin/kwin_wayland" --virtual \
      --socket "$name" --width "$w" --height "$h" --scale "$scale" --no-lockscreen \
      --no-global-shortcuts --no-kactivities >"$WLS_LOG" 2>&1 &
  WLS_PIDS+=($!)
  WLS_LOGS+=("$WLS_LOG:kwin-$name.log")
  WLS_KIND=kwin
  export WAYLAND_DISPLAY=$name
  _wls_wait_socket "$name" $! "$WLS_LOG"
}

start_mutter() { # name [width height]
  local name=$1 w=${2:-800} h=${3:-600}
  _wls_runtime_dir
  WLS_LOG="$XDG_RUNTIME_DIR/mutter.log"
  dbus-daemon --session --address="unix:path=$XDG_RUNTIME_DIR/bus" --nofork --nopidfile \
      >"$XDG_RUNTIME_DIR/dbus.log" 2>&1 &
  WLS_PIDS+=($!)
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
  # PipeWire carries mutter's screen casts (screenshots, and the stream absolute input refers to).
  # pipewire and wireplumber raise their own priority (real-time threads, nice -11) even under
  # nice; without CAP_SYS_NICE they cannot, which keeps a shared CI machine responsive.
  setpriv --bounding-set -sys_nice nice -n 10 pipewire >"$XDG_RUNTIME_DIR/pipewire.log" 2>&1 &
  WLS_PIDS+=($!)
  mutter --headless --wayland --no-x11 --virtual-monitor "${w}x${h}" --wayland-display "$name" >"$WLS_LOG" 2>&1 &
  WLS_PIDS+=($!)
  WLS_LOGS+=("$WLS_LOG:mutter-$name.log")
  WLS_KIND=mutter
  export WAYLAND_DISPLAY=$name
  _wls_wait_socket "$name" $! "$WLS_LOG"
  setpriv --bounding-set -sys_nice nice -n 10 wireplumber >"$XDG_RUNTIME_DIR/wireplumber.log" 2>&1 &
  WLS_PIDS+=($!)
}

screenshot() { # file
  local out=$1
  case $WLS_KIND in
    weston)
      local dir; dir=$(mktemp -d)
      (cd "$dir" && weston-screenshooter >/dev/null 2>&1)
      mv "$dir"/wayland-screenshot-*.png "$out" && rmdir "$dir" ;;
    sway)
      grim "$out" ;;
    mutter)
      echo "screenshot: under mutter the injector takes screenshots (inject 'screenshot FILE')" >&2; return 1 ;;
    *)
      echo "screenshot: not supported under $WLS_KIND" >&2; return 1 ;;
  esac
}

stop_compositors() {
  local pid entry
  for pid in "${WLS_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${WLS_PIDS[@]}"; do _wls_wait_exit "$pid"; done
  if [[ -n "${WLS_ARTIFACTS:-}" ]]; then
    for entry in "${WLS_LOGS[@]}"; do cp "${entry%%:*}" "$WLS_ARTIFACTS/${entry#*:}" 2>/dev/null || true; done
  fi
  for entry in "${WLS_DIRS[@]}"; do rm -rf "$entry"; done
  WLS_PIDS=()
  WLS_DIRS=()
  WLS_LOGS=()
}

# Waits up to 5 s for a process we started to exit after SIGTERM, then kills it.
_wls_wait_exit() {
  local i
  for i in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
