# The flags wlslider's release binary is built with (scripts/build-release, scripts/bench). Source
# this file.
#
# --static-swift-stdlib: nothing of Swift to install next to the binary, and a smaller resident
#   set than the shared runtime libraries.
# lld with packed relative relocations (DT_RELR, glibc 2.36 and later): the position-independent
#   executable keeps its address randomisation, but its ~0.9 MB table of relocations shrinks to a
#   few KB, which saves about 0.8 MB of resident memory at start.
# -enforce-exclusivity=unchecked: no run-time exclusivity checks (swift_beginAccess/endAccess on
#   every access to a class's stored property, about 4 % of the instructions of an animated frame).
#   The compiler still proves exclusivity statically; the debug builds the tests run keep the
#   run-time checks, so a violation is still caught there.
# --disable-local-rpath: no RUNPATH of $ORIGIN. The binary ships no libraries next to itself, and
#   with one the dynamic loader first looks for each library it links in the binary's
#   directory and its hardware-capability subdirectories: about 20 failed openat and stat calls at
#   every start.
# -disable-concrete-type-metadata-mangled-name-accessors: code that needs the metadata of a concrete
#   generic type (argument-parser's Option<Double?>, its ArgumentDefinition containers, ...) calls
#   the type's metadata accessor with the arguments' metadata and witness tables, instead of
#   handing the runtime a mangled name to demangle and whose generic requirements it then checks
#   by scanning every protocol conformance record in the binary (3 700 of them). Each such type is
#   made once per run, but a run makes hundreds at start: --version runs 12 % fewer instructions.
# -function-sections and lld's --symbol-ordering-file with scripts/lib/symbol-order.txt: the
#   functions an animated frame runs are laid out together, first, then the rest of what a run
#   executes (scripts/generate-symbol-order measures the list). A frame touches a few dozen pages of
#   code instead of about 150 spread over the 9 MB of text: after 16 ms asleep, fewer cold
#   instruction-cache and TLB misses (CPU per frame 1.75× → 1.6× the floor client, medians of 8
#   alternating rounds), and start-up faults in fewer pages (484 → 466 for --version). Names the
#   code no longer has are skipped without a warning: a stale list costs locality, not correctness.
# --emit-relocs: the link keeps its relocations in the binary, so that BOLT (scripts/build-release)
#   can move functions, not only rewrite them in place: the frame's functions end up packed
#   together. strip drops them with the symbols; the installed binary is 0.1 MB larger for BOLT's
#   new sections.
# -z now: every symbol of the binary bound at load (full RELRO: the GOT is read-only from then on),
#   which lets BOLT call through the GOT instead of through PLT stubs (-plt=all): a frame no longer
#   runs the stubs of its ~40 calls into libc and libwayland. No measurable cost at start
#   (--version 2.33 ms before, 2.28 ms after, perf stat -r 200); libraries keep lazy binding.
# libstdc++ and libgcc linked in, not loaded: the static Swift runtime is C++ and needs a few of
#   their functions (strings, trees, operator new, the unwinder), and loading libstdc++.so and
#   libgcc_s.so costs the dynamic loader more at every start than the rest of its work (mapping
#   them, thousands of symbol relocations): --version 4.9 → 3.7 ms, the first frame 5.4 → 4.6 ms
#   under the test compositor, for 75 KB more binary. clang's -static-libgcc does the second;
#   for the first, swiftc's static-stdlib arguments name -lstdc++ themselves, so a directory
#   searched before gcc's own holds only libstdc++.a (a link to gcc's; the GCC Runtime Library
#   Exception allows this). Their symbols stay local to the binary (--exclude-libs ALL, from the
#   same arguments): a library loaded later that brings its own libstdc++ (jack2's libjack) uses
#   that one.
release_order_file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/symbol-order.txt
release_static_cxx=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.build-static-cxx
release_libstdcxx=$(cc -print-file-name=libstdc++.a)
if [[ "$release_libstdcxx" != /* ]]; then
  echo "release-flags: libstdc++.a not found (cc -print-file-name=libstdc++.a); install libstdc++-12-dev" >&2
  return 1 2>/dev/null || exit 1
fi
mkdir -p "$release_static_cxx"
ln -sfn "$release_libstdcxx" "$release_static_cxx/libstdc++.a"
release_options=(--static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld
                 -Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now -Xlinker --emit-relocs
                 -Xswiftc -enforce-exclusivity=unchecked
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
                 -Xswiftc -Xfrontend -Xswiftc -function-sections
                 -Xlinker "--symbol-ordering-file=$release_order_file" -Xlinker --no-warn-symbol-ordering
                 -Xswiftc "-L$release_static_cxx" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc)
release_flags=(-c release "${release_options[@]}")
