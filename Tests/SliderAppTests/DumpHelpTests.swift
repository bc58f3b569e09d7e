// `--experimental-dump-help`: the JSON behind the man page (scripts/generate-manual). wlslider's
// copy of swift-argument-parser writes it without Foundation (Vendor/swift-argument-parser/
// VENDORED.md); Foundation's own encoder, given the same document, must write the same bytes.
import Foundation
import Testing

@Suite struct DumpHelpTests {
    @Test func dumpHelpIsWhatFoundationsEncoderWrites() async throws {
        let run = try WlsliderProcess(["--experimental-dump-help"], environment: environmentWithoutCompositor().environment)
        #expect(try await run.waitForExit() == 0)
        #expect(run.stderrText == "")
        let written = Data(run.stdoutText.utf8)
        let document = try JSONDecoder().decode(JSONValue.self, from: written)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let expected = String(decoding: try encoder.encode(document), as: UTF8.self)
        // Printed with a newline after it.
        #expect(run.stdoutText == expected + "\n")

        // And it describes wlslider: its name, every option, escapes and all.
        guard case .object(let root) = document, case .object(let command)? = root["command"],
              case .array(let arguments)? = command["arguments"] else {
            Issue.record("no command.arguments in \(run.stdoutText.prefix(200))")
            return
        }
        #expect(command["commandName"] == .string("wlslider"))
        #expect(root["serializationVersion"] == .number(0))
        let longNames = arguments.compactMap { argument -> String? in
            guard case .object(let fields) = argument, case .object(let name)? = fields["preferredName"],
                  name["kind"] == .string("long"), case .string(let text)? = name["name"] else { return nil }
            return text
        }
        for option in ["min", "max", "value", "format", "osc", "exec", "audio-out", "jack", "edge", "exit-on-eof"] {
            #expect(longNames.contains(option), "--\(option) missing from \(longNames)")
        }
        #expect(run.stdoutText.contains(#"({\"t\":ms,\"value\":v,\"phase\":...})"#))
        #expect(run.stdoutText.contains(#"127.0.0.1:57120\/wlslider\/value"#))
    }
}

/// Any JSON document, as Foundation's decoder reads it and its encoder writes it back.
private enum JSONValue: Codable, Equatable {
    case string(String)
    case number(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
