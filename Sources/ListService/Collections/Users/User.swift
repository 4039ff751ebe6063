/// A person in the tap counter: tapping one adds one to its count.
package struct User: Sendable, Equatable {
    package var id: String
    package var name: String
    package var taps: Int

    package init(id: String, name: String, taps: Int) {
        self.id = id
        self.name = name
        self.taps = taps
    }

    /// The most taps a person can have; a tap past it is refused (409).
    package static let maxTaps = Int(Int32.max)

    /// The person tapped once more, or nil at `maxTaps`.
    package func tapped() -> User? {
        guard taps < Self.maxTaps else { return nil }
        var tapped = self
        tapped.taps += 1
        return tapped
    }

    /// The first letter of the first and of the last word, capitalised: "Ada Lovelace" → "AL",
    /// "Plato" → "P".
    package var initials: String {
        let words = name.split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first?.first else { return "" }
        let last = words.count > 1 ? words.last?.first : nil
        return [first, last].compactMap { $0.map(String.init) }.joined().uppercased()
    }
}

extension User {
    /// Decodes one person in the data format: `{"id": "u-000001", "name": "…", "taps": 0}`.
    package init(json: JSONValue, path: String) throws(JSONFieldError) {
        let fields = try JSONFields(json, path: path)
        let id = try fields.string("id")
        guard !id.isEmpty else { throw JSONFieldError(path: fields.fieldPath("id"), reason: "is empty") }
        guard let taps = try fields.number("taps").int64.map(Int.init), (0...Self.maxTaps).contains(taps) else {
            throw JSONFieldError(path: fields.fieldPath("taps"), reason: "must be a whole number from 0 to \(Self.maxTaps)")
        }
        self.init(id: id, name: try fields.nonBlankString("name"), taps: taps)
    }
}
