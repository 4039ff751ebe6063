/// A parsed JSON document. Numbers keep their source text so money stays exact.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// What kind of value this is.
    package var kind: JSONKind {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

/// The kinds of JSON value; in a message, "expected a string, found a number".
package enum JSONKind: Sendable, Equatable, CustomStringConvertible {
    case null, boolean, number, string, array, object

    /// In English, for messages: "a number", "an array".
    package var description: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number as written in the source.
package struct JSONNumber: Sendable, Equatable {
    package let text: String

    package var double: Double? { Double(text) }

    /// The number as a whole `Int64`, nil if it has a fraction, an exponent or overflows.
    package var int64: Int64? { Int64(text) }
}

/// A JSON object's members in source order.
package struct JSONObject: Sendable, Equatable {
    package var members: [(key: String, value: JSONValue)]

    package init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    package subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    package var keys: [String] { members.map(\.key) }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
