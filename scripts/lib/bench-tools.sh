# The C helpers of the frame-cost measurement, built into the scratch folder: the floor client
# (Benchmarks/floor-client), the allocation counter (Benchmarks/alloc-counter) and the frame
# footprint counter (Benchmarks/frame-footprint). Source this file; `build_bench_tools DIR` sets
# $floor_client, $alloc_counter and $frame_footprint.
build_bench_tools() { # directory
  local dir=$1 protocols=Sources/CWaylandProtocols
  mkdir -p "$dir"
  floor_client=$dir/floor-client
  alloc_counter=$dir/alloc-counter.so
  frame_footprint=$dir/frame-footprint
  if [[ ! "$floor_client" -nt Benchmarks/floor-client/floor.c ]]; then
    cc -O2 -Wall -o "$floor_client" Benchmarks/floor-client/floor.c "$protocols/xdg-shell-protocol.c" \
       -I"$protocols/include" -lwayland-client
  fi
  if [[ ! "$alloc_counter" -nt Benchmarks/alloc-counter/alloc-counter.c ]]; then
    cc -O2 -Wall -shared -fPIC -o "$alloc_counter" Benchmarks/alloc-counter/alloc-counter.c
  fi
  if [[ ! "$frame_footprint" -nt Benchmarks/frame-footprint/footprint.c ]]; then
    cc -O2 -Wall -Wextra -o "$frame_footprint" Benchmarks/frame-footprint/footprint.c
  fi
}
