// swift-tools-version: 6.0
//
// wlslider: a Wayland-native slider whose value glides like an audio parameter.
//
// Modules, each with one job:
//   Posix          the system layer: descriptors, errno, the monotonic clock, the event loop, UDP,
//                  child processes (the only importer of CPosix, the shim for calls Glibc hides)
//   SliderEngine   what the slider does with input and time (pure Swift: no Wayland, no clock, no I/O)
//   SliderRender   draws the slider into ARGB8888 pixels with pixman (the only importer of CPixman)
//   WaylandClient  talks to the compositor (the only importer of libwayland-client, and of the shims
//                  that load xkbcommon, wayland-cursor and libdecor at run time, each only when
//                  first needed: the first key, a pointer without cursor-shape-v1, a compositor
//                  that draws no title bars)
//   SliderOutput   where the value stream goes: stdout lines, OSC, exec hook, audio-rate samples
//   SliderApp      ties them together: options, the sinks and surface on one loop, frame pacing
//   wlslider       the command-line entry point
// C libraries are wrapped in system-library targets (C*); generated protocol code lives in
// CWaylandProtocols (see scripts/generate-protocols).
import PackageDescription

let package = Package(
    name: "wlslider",
    products: [
        .executable(name: "wlslider", targets: ["wlslider"]),
        .library(name: "SliderEngine", targets: ["SliderEngine"]),
    ],
    dependencies: [
        // swift-argument-parser 1.8.2 without its FoundationEssentials import (Vendor/swift-argument-parser/VENDORED.md).
        .package(path: "Vendor/swift-argument-parser"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // C libraries from Debian.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CWaylandServer", pkgConfig: "wayland-server", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // Generated protocol code (scripts/generate-protocols).
        .target(name: "CWaylandProtocols", dependencies: ["CWaylandClient"]),
        .target(name: "CWaylandServerProtocols", dependencies: ["CWaylandServer", "CWaylandProtocols"]),
        .target(name: "CInjectorProtocols", dependencies: ["CWaylandClient"]),
        // Libraries loaded through dlopen when first needed: no link-time dependency, so the dynamic
        // loader does not map them at every start. libxkbcommon at the first key, libwayland-cursor
        // for a pointer where the compositor offers no cursor-shape-v1 (both include the library's
        // header for its types: libxkbcommon-dev, libwayland-dev), libdecor only where it decorates.
        .target(name: "CLoadLibrary"),
        .target(name: "CXKBCommon", dependencies: ["CLoadLibrary"]),
        .target(name: "CWaylandCursor", dependencies: ["CLoadLibrary"]),
        .target(name: "CLibdecor", dependencies: ["CLoadLibrary"]),
        // libjack, loaded at run time by --jack / --midi-cc (dlopen; no link-time dependency).
        .target(name: "CJack", dependencies: ["CLoadLibrary"]),

        // The system layer, below both WaylandClient and SliderOutput.
        .target(name: "CPosix"),
        .target(name: "Posix", dependencies: ["CPosix"]),

        // The slider.
        .target(name: "SliderEngine"),
        .target(name: "SliderRender", dependencies: ["CPixman", "SliderEngine"]),
        .target(
            name: "WaylandClient",
            dependencies: ["Posix", "CWaylandClient", "CWaylandProtocols", "CXKBCommon", "CWaylandCursor", "CLibdecor"]
        ),
        .target(name: "SliderOutput", dependencies: ["Posix", "SliderEngine", "CJack"]),
        .target(name: "SliderApp", dependencies: ["Posix", "SliderEngine", "SliderRender", "WaylandClient", "SliderOutput"]),
        .executableTarget(
            name: "wlslider",
            dependencies: ["Posix", "SliderApp", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Test support and tools.
        .target(name: "PNGImage", dependencies: ["CPNG"], path: "Tests/Support/PNGImage"),
        .target(
            name: "TestCompositor",
            // CXKBCommon for xkbcommon's header; the compositor links libxkbcommon and calls it
            // directly (it builds, serializes and tracks the keymap it sends).
            dependencies: ["CWaylandServer", "CWaylandServerProtocols", "CXKBCommon"],
            path: "Tests/Support/TestCompositor",
            linkerSettings: [.linkedLibrary("xkbcommon")]
        ),
        .executableTarget(
            name: "wlslider-inject",
            dependencies: ["CWaylandClient", "CInjectorProtocols"],
            path: "Tools/wlslider-inject"
        ),
        .executableTarget(name: "wlslider-probe", dependencies: ["PNGImage"], path: "Tools/wlslider-probe"),
        // The C floor client's frame in Swift, measured next to it (scripts/bench).
        .executableTarget(name: "floor-swift", dependencies: ["Posix", "CWaylandClient", "CWaylandProtocols"], path: "Benchmarks/floor-swift"),
        .executableTarget(
            name: "wlslider-bench",
            dependencies: ["SliderEngine", "SliderRender", "SliderOutput", "TestCompositor"],
            path: "Benchmarks/wlslider-bench"
        ),

        // Tests.
        .testTarget(
            name: "SliderEngineTests",
            dependencies: ["SliderEngine", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SliderRenderTests", dependencies: ["SliderRender", "PNGImage"], exclude: ["Golden"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "WaylandClientTests", dependencies: ["WaylandClient"]),
        .testTarget(name: "SliderOutputTests", dependencies: ["SliderOutput"]),
        .testTarget(
            name: "SliderAppTests",
            // Runs the real wlslider binary against TestCompositor; CWaylandServer for its
            // close-on-exec pipe and pidfd shims (parallel tests must not leak pipe ends into
            // each other's children).
            dependencies: ["SliderApp", "TestCompositor", "CWaylandServer"]
        ),
        // The end-to-end tools' pure parts: the probe's screenshot analysis, the injector's commands.
        .testTarget(name: "ToolTests", dependencies: ["wlslider-probe", "wlslider-inject", "PNGImage"]),
        .testTarget(
            name: "IntegrationTests",
            // CWaylandClient + CWaylandProtocols: the raw in-process client the compositor's self-tests use.
            dependencies: ["TestCompositor", "PNGImage", "SliderEngine", "CWaylandClient", "CWaylandProtocols"]
        ),
    ]
)
