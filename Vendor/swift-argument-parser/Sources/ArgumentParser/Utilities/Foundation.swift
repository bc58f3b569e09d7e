//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// wlslider's copy: what upstream takes from FoundationEssentials, without it (VENDORED.md).
// Importing FoundationEssentials links all of it into a statically linked program, and with it
// 1 059 protocol conformance records the Swift runtime scans at each first dynamic cast or
// generic instantiation, which is most of what a command's parse does at start.

extension Error {
  /// Upstream prefers `LocalizedError.errorDescription`; without Foundation no error has one, and
  /// on Linux upstream falls back to this.
  func describe() -> String {
    String(describing: self)
  }
}

/// `--experimental-dump-help`'s JSON, written the way Foundation's `JSONEncoder` writes it with
/// `.prettyPrinted` and `.sortedKeys`: two-space indents, `"key" : value`, keys in order, `/`
/// escaped as `\/`.
enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    let root = JSONNode()
    guard (try? value.encode(to: JSONTreeEncoder(node: root, codingPath: []))) != nil else { return "" }
    var text = ""
    root.write(to: &text, indent: 0)
    return text
  }
}

/// One value of the tree an `Encodable` value is encoded into.
private final class JSONNode {
  enum Shape {
    case unset
    /// A string, number, boolean or null, already as JSON text.
    case scalar(String)
    case array
    case object
  }

  var shape = Shape.unset
  var elements: [JSONNode] = []
  var members: [String: JSONNode] = [:]

  func write(to text: inout String, indent: Int) {
    switch shape {
    case .unset:
      text += "{\n\n" + String(repeating: " ", count: indent) + "}"
    case .scalar(let json):
      text += json
    case .array:
      text += "[\n"
      for (index, element) in elements.enumerated() {
        if index > 0 { text += ",\n" }
        text += String(repeating: " ", count: indent + 2)
        element.write(to: &text, indent: indent + 2)
      }
      text += "\n" + String(repeating: " ", count: indent) + "]"
    case .object:
      text += "{\n"
      for (index, key) in members.keys.sorted().enumerated() {
        if index > 0 { text += ",\n" }
        text += String(repeating: " ", count: indent + 2) + JSONNode.quoted(key) + " : "
        members[key]!.write(to: &text, indent: indent + 2)
      }
      text += "\n" + String(repeating: " ", count: indent) + "}"
    }
  }

  static func quoted(_ string: String) -> String {
    var json = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": json += "\\\""
      case "\\": json += "\\\\"
      case "/": json += "\\/"
      case "\n": json += "\\n"
      case "\r": json += "\\r"
      case "\t": json += "\\t"
      case "\u{8}": json += "\\b"
      case "\u{C}": json += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: json.unicodeScalars.append(scalar)
      }
    }
    return json + "\""
  }

  static func number<N: BinaryFloatingPoint>(_ value: N) -> String {
    if value.rounded() == value, let whole = Int64(exactly: value) { return String(whole) }
    return "\(value)"
  }
}

private struct JSONTreeEncoder: Encoder {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.shape = .object
    return KeyedEncodingContainer(JSONKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.shape = .array
    return JSONUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONSingleValueContainer(node: node, codingPath: codingPath)
  }
}

/// The position of an element of an unkeyed container in a coding path.
private struct JSONIndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONNode
  let codingPath: [any CodingKey]

  /// A new member named `name`, in place of any before it.
  private func member(_ name: String) -> JSONNode {
    let member = JSONNode()
    node.members[name] = member
    return member
  }

  private func child(_ key: Key) -> JSONNode { member(key.stringValue) }

  private func set(_ json: String, _ key: Key) { child(key).shape = .scalar(json) }

  mutating func encodeNil(forKey key: Key) throws { set("null", key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(value ? "true" : "false", key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(JSONNode.quoted(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(JSONNode.number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { set(JSONNode.number(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(String(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(String(value), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try value.encode(to: JSONTreeEncoder(node: child(key), codingPath: codingPath + [key]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let member = child(key)
    member.shape = .object
    return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: member, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let member = child(key)
    member.shape = .array
    return JSONUnkeyedContainer(node: member, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    JSONTreeEncoder(node: member("super"), codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    JSONTreeEncoder(node: child(key), codingPath: codingPath + [key])
  }
}

private struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var count: Int { node.elements.count }

  private func append(_ json: String) { appendChild().shape = .scalar(json) }

  private func appendChild() -> JSONNode {
    let element = JSONNode()
    node.elements.append(element)
    return element
  }

  mutating func encodeNil() throws { append("null") }
  mutating func encode(_ value: Bool) throws { append(value ? "true" : "false") }
  mutating func encode(_ value: String) throws { append(JSONNode.quoted(value)) }
  mutating func encode(_ value: Double) throws { append(JSONNode.number(value)) }
  mutating func encode(_ value: Float) throws { append(JSONNode.number(value)) }
  mutating func encode(_ value: Int) throws { append(String(value)) }
  mutating func encode(_ value: Int8) throws { append(String(value)) }
  mutating func encode(_ value: Int16) throws { append(String(value)) }
  mutating func encode(_ value: Int32) throws { append(String(value)) }
  mutating func encode(_ value: Int64) throws { append(String(value)) }
  mutating func encode(_ value: UInt) throws { append(String(value)) }
  mutating func encode(_ value: UInt8) throws { append(String(value)) }
  mutating func encode(_ value: UInt16) throws { append(String(value)) }
  mutating func encode(_ value: UInt32) throws { append(String(value)) }
  mutating func encode(_ value: UInt64) throws { append(String(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = codingPath + [JSONIndexKey(count)]
    try value.encode(to: JSONTreeEncoder(node: appendChild(), codingPath: path))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let path = codingPath + [JSONIndexKey(count)]
    let element = appendChild()
    element.shape = .object
    return KeyedEncodingContainer(JSONKeyedContainer<NestedKey>(node: element, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = codingPath + [JSONIndexKey(count)]
    let element = appendChild()
    element.shape = .array
    return JSONUnkeyedContainer(node: element, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let path = codingPath + [JSONIndexKey(count)]
    return JSONTreeEncoder(node: appendChild(), codingPath: path)
  }
}

private struct JSONSingleValueContainer: SingleValueEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]

  private func set(_ json: String) { node.shape = .scalar(json) }

  mutating func encodeNil() throws { set("null") }
  mutating func encode(_ value: Bool) throws { set(value ? "true" : "false") }
  mutating func encode(_ value: String) throws { set(JSONNode.quoted(value)) }
  mutating func encode(_ value: Double) throws { set(JSONNode.number(value)) }
  mutating func encode(_ value: Float) throws { set(JSONNode.number(value)) }
  mutating func encode(_ value: Int) throws { set(String(value)) }
  mutating func encode(_ value: Int8) throws { set(String(value)) }
  mutating func encode(_ value: Int16) throws { set(String(value)) }
  mutating func encode(_ value: Int32) throws { set(String(value)) }
  mutating func encode(_ value: Int64) throws { set(String(value)) }
  mutating func encode(_ value: UInt) throws { set(String(value)) }
  mutating func encode(_ value: UInt8) throws { set(String(value)) }
  mutating func encode(_ value: UInt16) throws { set(String(value)) }
  mutating func encode(_ value: UInt32) throws { set(String(value)) }
  mutating func encode(_ value: UInt64) throws { set(String(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try value.encode(to: JSONTreeEncoder(node: node, codingPath: codingPath))
  }
}
