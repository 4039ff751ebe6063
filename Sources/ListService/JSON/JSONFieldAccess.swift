/// A field that is missing or of the wrong kind, named by its path (`orders[17].total`).
package struct JSONFieldError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason)" }
}

/// Typed access to an object's members with errors that name the field.
package struct JSONFields {
    package let object: JSONObject
    package let path: String

    package init(_ value: JSONValue, path: String) throws(JSONFieldError) {
        guard case .object(let object) = value else {
            throw JSONFieldError(path: path, reason: "expected an object, found \(value.kind)")
        }
        self.object = object
        self.path = path
    }

    package func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func value(_ key: String) throws(JSONFieldError) -> JSONValue {
        guard let value = object[key] else { throw JSONFieldError(path: fieldPath(key), reason: "is missing") }
        return value
    }

    package func string(_ key: String) throws(JSONFieldError) -> String {
        let value = try value(key)
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    /// A string with more than white space in it (a name, a title), as a write through the
    /// API would need.
    package func nonBlankString(_ key: String) throws(JSONFieldError) -> String {
        let string = try string(key)
        guard string.contains(where: { !$0.isWhitespace }) else { throw JSONFieldError(path: fieldPath(key), reason: "is blank") }
        return string
    }

    /// A string that may be absent or null.
    package func optionalString(_ key: String) throws(JSONFieldError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let string)?: return string
        case let other?: throw mismatch(key, "a string or null", other)
        }
    }

    package func bool(_ key: String) throws(JSONFieldError) -> Bool {
        let value = try value(key)
        guard case .bool(let bool) = value else { throw mismatch(key, "true or false", value) }
        return bool
    }

    package func number(_ key: String) throws(JSONFieldError) -> JSONNumber {
        let value = try value(key)
        guard case .number(let number) = value else { throw mismatch(key, "a number", value) }
        return number
    }

    /// A number that may be absent or null.
    package func optionalNumber(_ key: String) throws(JSONFieldError) -> JSONNumber? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let number)?: return number
        case let other?: throw mismatch(key, "a number or null", other)
        }
    }

    package func array(_ key: String) throws(JSONFieldError) -> [JSONValue] {
        let value = try value(key)
        guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
        return array
    }

    package func fields(_ key: String) throws(JSONFieldError) -> JSONFields {
        try JSONFields(try value(key), path: fieldPath(key))
    }

    private func mismatch(_ key: String, _ expected: String, _ found: JSONValue) -> JSONFieldError {
        JSONFieldError(path: fieldPath(key), reason: "expected \(expected), found \(found.kind)")
    }
}
