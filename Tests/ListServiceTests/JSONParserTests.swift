import Basics
import Foundation
import Testing

@testable import ListService

@Suite struct JSONParserTests {
    private func parse(_ text: String) -> JSONValue? { try? JSONParser.parse(Array(text.utf8)) }

    @Test func documents_parseWithNumbersKeptAsText() {
        let value = parse(#" {"a": [1, -2.50, 3e2, true, false, null], "b": "x\"\\\/\n\u00e9\ud83d\ude00"} "#)
        guard case .object(let object)? = value else {
            Issue.record("not an object")
            return
        }
        #expect(
            object["a"]
                == .array([
                    .number(JSONNumber(text: "1")), .number(JSONNumber(text: "-2.50")), .number(JSONNumber(text: "3e2")),
                    .bool(true), .bool(false), .null,
                ]))
        #expect(object["b"] == .string("x\"\\/\né😀"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", "NaN", "'a'", "{a:1}", "[1] 2", "\"\u{1}\"",
        "\"\\ud800\"", "\"\\x\"", "tru", "[\"abc]", "\"\\u12\"",
    ])
    func malformedDocuments_areRejected(text: String) {
        #expect(parse(text) == nil)
    }

    @Test func deepNesting_isRejectedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8)) }
    }

    @Test func duplicateMemberNames_areRejected_inSmallAndLargeObjects() {
        #expect(parse(#"{"a":1,"b":2,"a":3}"#) == nil)
        let many = (0..<100).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(parse("{\(many)}") != nil)
        #expect(parse("{\(many),\"k57\":1}") == nil)
        #expect(parse(#"{"a":{"a":1},"b":{"a":2}}"#) != nil, "the same name in different objects is fine")
    }

    @Test func requestBodyLimits_boundDepthAndValueCount() {
        let wide = "[" + Array(repeating: "{}", count: 20_001).joined(separator: ",") + "]"
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(wide.utf8), limits: .requestBody) }
        #expect((try? JSONParser.parse(Array(wide.utf8), limits: .files)) != nil)
        let keys = "{" + (0..<20_001).map { "\"\($0)\":1" }.joined(separator: ",") + "}"
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(keys.utf8), limits: .requestBody) }
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(deep.utf8), limits: .requestBody) }
    }

    /// A character where a value should start is named as a reader would recognise it: a
    /// non-ASCII one as itself with its code point (not its first byte read as Latin-1), a byte
    /// order mark and a control character by name or code point, a stray byte as a byte.
    @Test(arguments: [
        ([UInt8]("x".utf8), "invalid JSON at byte 0: unexpected character 'x'"),
        ([UInt8]("[1, é]".utf8), "invalid JSON at byte 4: unexpected character 'é' (U+00E9)"),
        ([UInt8]("\u{FEFF}{}".utf8), "invalid JSON at byte 0: unexpected byte order mark (U+FEFF); send the JSON without one"),
        ([0x01], "invalid JSON at byte 0: unexpected character U+0001"),
        ([UInt8]("{\"a\": 😀}".utf8), "invalid JSON at byte 6: unexpected character '😀' (U+1F600)"),
        ([0x5B, 0x80, 0x5D], "invalid JSON at byte 1: unexpected byte 0x80 (the body is not UTF-8)"),
        ([0xC3], "invalid JSON at byte 0: unexpected byte 0xC3 (the body is not UTF-8)"),
    ])
    func anUnexpectedCharacter_isNamedAsWritten(bytes: [UInt8], message: String) {
        let failure = #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
        #expect(failure?.description == message)
    }

    @Test func invalidUTF8_isRejected() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
    }

    /// Strings escaped in runs (found eight bytes at a time) equal strings escaped a byte at a
    /// time (the definition, here as the reference), and read back as they were: escapes
    /// first, last, side by side, at every place in a word, every control character, and text
    /// without any.
    @Test func stringsEscapedInRuns_equalTheByteByByteDefinition() throws {
        func reference(_ value: String) -> [UInt8] {
            var bytes: [UInt8] = [UInt8(ascii: "\"")]
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
                case 0x0A: bytes += Array(#"\n"#.utf8)
                case 0x0D: bytes += Array(#"\r"#.utf8)
                case 0x09: bytes += Array(#"\t"#.utf8)
                case 0..<0x20: bytes += Array(String(format: "\\u%04x", byte).utf8)
                default: bytes.append(byte)
                }
            }
            return bytes + [UInt8(ascii: "\"")]
        }
        let palette = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) } + ["\"", "\\", "a", "Z", " ", "ü", "€", "😀", "/"]
        var random = SplitMix64(seed: 7)
        let samples =
            ["", "plain text with no escapes at all", "\"", "\\", "\n", "\"quoted\"", "ends with\n"]
            + (0..<500).map { _ in String((0..<random.below(40)).map { _ in palette[random.below(palette.count)] }) }
            + (0..<24).flatMap { offset in  // each escape at every place in an eight-byte word
                ["\"", "\\", "\u{1F}"].map { String(repeating: "a", count: offset) + $0 + String(repeating: "ü", count: 12) }
            }
        for sample in samples {
            var bytes: [UInt8] = []
            JSONString.append(sample, to: &bytes)
            #expect(bytes == reference(sample), "\(sample.debugDescription)")
            #expect(try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String == sample)
        }
        for (first, second) in zip(samples, samples.dropFirst(3)) {  // two parts, one literal
            var bytes: [UInt8] = []
            JSONString.append(first, second, to: &bytes)
            #expect(bytes == reference(first + second), "\(first.debugDescription) then \(second.debugDescription)")
        }
    }

    @Test func writer_compactsOnlyAMostlyEmptyReserve() {
        var small = JSONWriter(reservingCapacity: 4096)
        small.field("name", String(repeating: "a", count: 90))
        #expect(small.compactedBytes == small.bytes && small.compactedBytes.capacity < 1024)
        var full = JSONWriter(reservingCapacity: 4096)
        full.field("name", String(repeating: "b", count: 3000))
        #expect(full.compactedBytes == full.bytes && full.compactedBytes.capacity == full.bytes.capacity, "no copy: little to gain")
    }

    @Test func writer_escapesAndRoundTrips() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("s")
        writer.string("a\"b\\c\n\u{1}ü")
        writer.key("n")
        writer.int(-42)
        writer.key("z")
        writer.optionalString(nil)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"s":"a\"b\\c\n\u0001ü","n":-42,"z":null}"#)
        let parsed = try JSONParser.parse(writer.bytes)
        guard case .object(let object) = parsed else {
            Issue.record("parsed \(parsed), not an object")
            return
        }
        #expect(object["s"] == .string("a\"b\\c\n\u{1}ü"))
    }

    @Test func integersAreWrittenAsTheirDecimalText_atEveryMagnitudeAndSign() {
        var generator = SystemRandomNumberGenerator()
        let samples =
            [0, 1, -1, 9, 10, -10, 99, 100, 1_234_567, Int.max, Int.min, Int.max - 1, Int.min + 1]
            + (0..<500).map { _ in Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...63, using: &generator) }
        for value in samples {
            var json = JSONWriter(reservingCapacity: 8)
            json.beginArray()
            json.int(value)
            json.int(value)
            json.endArray()
            #expect(String(decoding: json.bytes, as: UTF8.self) == "[\(value),\(value)]")
        }
    }
}
