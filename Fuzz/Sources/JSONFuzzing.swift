#if FUZZING
    import Basics
    @testable import ListService

    /// The JSON parser with a request body's limits. Invariant: a document it accepts, written
    /// back out, parses to the same value; one it refuses says where.
    enum JSONFuzzing {
        static func run(_ input: [UInt8]) {
            let value: JSONValue
            do {
                value = try JSONParser.parse(input, limits: .requestBody)
            } catch {
                fuzzCheck(error.offset >= 0 && error.offset <= input.count, "a failure outside the input: \(error)")
                return
            }
            var written = ""
            write(value, to: &written)
            guard let reparsed = try? JSONParser.parse(Array(written.utf8), limits: .files) else {
                return fuzzCheck(false, "its own output did not parse: \(written.prefix(200))")
            }
            fuzzCheck(reparsed == value, "a round trip changed the value")
        }

        private static func write(_ value: JSONValue, to out: inout String) {
            switch value {
            case .null: out += "null"
            case .bool(let flag): out += flag ? "true" : "false"
            case .number(let number): out += number.text
            case .string(let text): out += JSONString.quoted(text)
            case .array(let elements):
                out += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { out += "," }
                    write(element, to: &out)
                }
                out += "]"
            case .object(let object):
                out += "{"
                for (index, member) in object.members.enumerated() {
                    if index > 0 { out += "," }
                    out += JSONString.quoted(member.key) + ":"
                    write(member.value, to: &out)
                }
                out += "}"
            }
        }
    }
#endif
