// swift-tools-version:6.0
//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2020 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// swift-argument-parser 1.8.2 as wlslider builds it: the library, its tool-info model and the
// generate-manual plugin with its tool (VENDORED.md says what differs from upstream and why).

import PackageDescription

let package = Package(
  name: "swift-argument-parser",
  products: [
    .library(
      name: "ArgumentParser",
      targets: ["ArgumentParser"]),
    .plugin(
      name: "GenerateManual",
      targets: ["GenerateManual"]),
  ],
  targets: [
    .target(
      name: "ArgumentParser",
      dependencies: ["ArgumentParserToolInfo"],
      // Built as a local package, its own deprecation warnings would show in every build.
      swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
    .target(
      name: "ArgumentParserToolInfo"),
    .plugin(
      name: "GenerateManual",
      capability: .command(
        intent: .custom(
          verb: "generate-manual",
          description: "Generate a manual entry for a specified target.")),
      dependencies: ["generate-manual"]),
    .executableTarget(
      name: "generate-manual",
      dependencies: ["ArgumentParser", "ArgumentParserToolInfo"],
      path: "Tools/generate-manual"),
  ]
)
