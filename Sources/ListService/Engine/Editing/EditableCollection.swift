import Foundation

/// A collection clients can change. Validation lives here, beside the model, and reports every
/// problem at once; the engine journals, applies and patches.
package protocol EditableCollection: ListCollection {
    /// Builds a new item from a create body (`POST /{name}`), with a server-assigned id.
    static func makeItem(from body: JSONObject, sequence: Int, context: EditContext) -> Result<Item, WriteRejection>
    /// Applies a JSON merge patch (RFC 7396) of the editable fields (`PATCH /{name}/:id`).
    static func patch(_ item: Item, with body: JSONObject, context: EditContext) -> Result<Item, WriteRejection>
    /// Named state changes (`POST /{name}/:id/complete`).
    static var actions: [String] { get }
    /// Performs an action; returns the item unchanged when it already is in that state.
    static func perform(_ action: String, on item: Item) -> Result<Item, WriteRejection>
}

extension EditableCollection {
    package static var actions: [String] { [] }
    package static func perform(_ action: String, on item: Item) -> Result<Item, WriteRejection> {
        .failure(.notFound("action '\(action)'"))
    }
}

/// A problem with one field of a write body, for the `errors` list of a 422.
package struct FieldProblem: Sendable, Equatable {
    package let field: String
    package let detail: String

    package init(_ field: String, _ detail: String) {
        self.field = field
        self.detail = detail
    }
}

/// Why a write was refused; nothing changed.
package struct WriteRejection: Error, Sendable, Equatable {
    /// What kind of refusal, for the status it maps to.
    package enum Kind: Sendable, Equatable {
        /// Fields fail validation (422).
        case invalid([FieldProblem])
        /// No such item (404).
        case notFound
        /// The item's state forbids it (409).
        case conflict
        /// `If-Match` names another version (412).
        case stale
        /// Storage cannot take the change now (disk full, I/O error); nothing changed (503).
        case storageUnavailable
    }

    package let kind: Kind
    package let detail: String

    package init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package static func invalid(_ problems: [FieldProblem]) -> WriteRejection {
        WriteRejection(kind: .invalid(problems), detail: "\(problems.count) field(s) are invalid.")
    }
    /// One field is invalid: "'field' detail".
    package static func invalid(field: String, _ detail: String) -> WriteRejection {
        WriteRejection(kind: .invalid([FieldProblem(field, detail)]), detail: "'\(field)' \(detail)")
    }
    package static func notFound(_ what: String) -> WriteRejection { WriteRejection(kind: .notFound, detail: "No \(what).") }
    package static func conflict(_ detail: String) -> WriteRejection { WriteRejection(kind: .conflict, detail: detail) }
    static func stale(_ detail: String) -> WriteRejection { WriteRejection(kind: .stale, detail: detail) }
}

/// Collects field problems while a body is read, so a client learns of all of them at once.
package struct FieldValidator {
    package private(set) var problems: [FieldProblem] = []
    let body: JSONObject

    package init(_ body: JSONObject) { self.body = body }

    package mutating func report(_ field: String, _ detail: String) { problems.append(FieldProblem(field, detail)) }

    /// A required (or, when `isRequired` is false, optional) string of 1…`maxLength` characters after trimming.
    package mutating func text(_ field: String, in object: JSONObject? = nil, path: String? = nil, maxLength: Int, isRequired: Bool = true)
        -> String?
    {
        let name = path ?? field
        switch (object ?? body)[field] {
        case nil:
            if isRequired { report(name, "is required.") }
            return nil
        case .null?:
            report(name, isRequired ? "is required." : "must be a string, not null.")
            return nil
        case .string(let raw)?:
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty {
                report(name, "must not be empty.")
            } else if text.unicodeScalars.count > maxLength {  // code points, as JSON Schema's maxLength counts
                report(name, "must be at most \(maxLength) characters.")
            } else if text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                report(name, "must not contain control characters.")
            } else {
                return text
            }
            return nil
        case let other?:
            report(name, "must be a string, not \(other.kindDescription).")
            return nil
        }
    }

    package mutating func bool(_ field: String, in object: JSONObject? = nil, path: String? = nil, isRequired: Bool = true) -> Bool? {
        switch (object ?? body)[field] {
        case .bool(let value)?: return value
        case nil:
            if isRequired { report(path ?? field, "is required.") }
            return nil
        case .null?:
            report(path ?? field, "must be true or false, not null.")
            return nil
        case let other?:
            report(path ?? field, "must be true or false, not \(other.kindDescription).")
            return nil
        }
    }

    /// Reports every member not in `allowed` (typos must not pass silently).
    package mutating func rejectUnknown(_ allowed: [String], in object: JSONObject? = nil, prefix: String = "") {
        for key in (object ?? body).keys where !allowed.contains(key) { report(prefix + key, "is not a field that can be set here.") }
    }

    package var result: WriteRejection? { problems.isEmpty ? nil : .invalid(problems) }
}
