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
    /// Bulk actions beyond the named actions and `delete` (`POST /{name}/actions/{action}`),
    /// each the edit it makes on every item it names (tasks' `archive` is a patch); none by default.
    static var extraBulkEdits: [String: ItemEdit] { get }

    /// Whether `caller` may create an item at all: nil if so, else the refusal (403). What the
    /// new item then holds for them (its owner) `makeItem` decides from its context.
    static func createRefusal(by caller: Caller) -> WriteRejection?
    /// Whether `caller` may make `edit` on `item`, one they can see (one outside their read
    /// scope is not found before this is asked): nil if so, else the refusal (403).
    static func editRefusal(_ edit: ItemEdit, on item: Item, by caller: Caller) -> WriteRejection?
}

extension EditableCollection {
    package static func createRefusal(by caller: Caller) -> WriteRejection? { nil }
    package static func editRefusal(_ edit: ItemEdit, on item: Item, by caller: Caller) -> WriteRejection? { nil }
    package static var actions: [String] { [] }
    package static var extraBulkEdits: [String: ItemEdit] { [:] }
    package static func perform(_ action: String, on item: Item) -> Result<Item, WriteRejection> {
        .failure(.notFound("action '\(action)'"))
    }
}

/// A problem with one field of a write body, for the `errors` list of a 422.
package struct FieldProblem: Sendable, Equatable {
    package let field: String
    package let issue: FieldIssue

    package init(_ field: String, _ issue: FieldIssue) {
        self.field = field
        self.issue = issue
    }

    /// What is wrong, in the language of `localeTag` (English by default).
    package func detail(in localeTag: String = "en") -> String { ValidationPhrases.forLocale(localeTag).issue(issue) }
}

/// Why a write was refused; nothing changed.
package struct WriteRejection: Error, Sendable, Equatable {
    /// What kind of refusal, for the status it maps to.
    package enum Kind: Sendable, Equatable {
        /// Fields fail validation (422).
        case invalid([FieldProblem])
        /// No such item (404).
        case notFound
        /// The caller may see the item but not make this change (403).
        case forbidden
        /// The item's state forbids it (409).
        case conflict
        /// `If-Match` names another version (412).
        case stale
        /// Storage cannot take the change now (disk full, I/O error); nothing changed (503).
        case storageUnavailable
        /// The `Idempotency-Key` was used for another request (422).
        case idempotencyKeyReused
        /// The first request under the `Idempotency-Key` is still being processed (409).
        case idempotencyKeyInFlight
    }

    package let kind: Kind
    /// What the refusal says; nil for invalid fields, whose detail is their count, worded in
    /// the client's language when shown.
    private let statedDetail: String?

    package init(kind: Kind, detail: String) {
        self.kind = kind
        statedDetail = detail
    }

    package static func invalid(_ problems: [FieldProblem]) -> WriteRejection {
        WriteRejection(kind: .invalid(problems), statedDetail: nil)
    }

    private init(kind: Kind, statedDetail: String?) {
        self.kind = kind
        self.statedDetail = statedDetail
    }

    /// One field is invalid.
    package static func invalid(field: String, _ issue: FieldIssue) -> WriteRejection { invalid([FieldProblem(field, issue)]) }

    /// The detail in the language of `localeTag`: "2 fields are invalid" for invalid fields,
    /// else what the collection said.
    package func detail(in localeTag: String = "en") -> String {
        guard let statedDetail else {
            guard case .invalid(let problems) = kind else { return "" }  // every other kind is made with its detail
            return ValidationPhrases.forLocale(localeTag).summary(problems.count)
        }
        return statedDetail
    }
    package static func notFound(_ what: String) -> WriteRejection { WriteRejection(kind: .notFound, detail: "No \(what).") }
    package static func conflict(_ detail: String) -> WriteRejection { WriteRejection(kind: .conflict, detail: detail) }
    /// The caller may not `action` (`"complete orders"`): the detail names the action and who may.
    package static func forbidden(_ action: String, allowed: String) -> WriteRejection {
        WriteRejection(kind: .forbidden, detail: "You may not \(action); \(allowed) may.")
    }
    static func stale(_ detail: String) -> WriteRejection { WriteRejection(kind: .stale, detail: detail) }
}

/// Collects field problems while a body is read, so a client learns of all of them at once.
package struct FieldValidator {
    package private(set) var problems: [FieldProblem] = []
    package let body: JSONObject

    package init(_ body: JSONObject) { self.body = body }

    package mutating func report(_ field: String, _ issue: FieldIssue) { problems.append(FieldProblem(field, issue)) }

    /// A required (or, when `isRequired` is false, optional) string of 1…`maxLength` characters after trimming.
    package mutating func text(_ field: String, in object: JSONObject? = nil, path: String? = nil, maxLength: Int, isRequired: Bool = true)
        -> String?
    {
        let name = path ?? field
        switch (object ?? body)[field] {
        case nil:
            if isRequired { report(name, .required) }
            return nil
        case .null?:
            report(name, isRequired ? .required : .notNull(.string))
            return nil
        case .string(let raw)?:
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty {
                report(name, .empty)
            } else if text.unicodeScalars.count > maxLength {  // code points, as JSON Schema's maxLength counts
                report(name, .tooLong(maxCharacters: maxLength))
            } else if text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                report(name, .controlCharacters)
            } else {
                return text
            }
            return nil
        case let other?:
            report(name, .wrongKind(expected: .string, found: other.kind))
            return nil
        }
    }

    package mutating func bool(_ field: String, in object: JSONObject? = nil, path: String? = nil, isRequired: Bool = true) -> Bool? {
        switch (object ?? body)[field] {
        case .bool(let value)?: return value
        case nil:
            if isRequired { report(path ?? field, .required) }
            return nil
        case .null?:
            report(path ?? field, .notNull(.boolean))
            return nil
        case let other?:
            report(path ?? field, .wrongKind(expected: .boolean, found: other.kind))
            return nil
        }
    }

    /// Reports every member not in `allowed` (typos must not pass silently).
    package mutating func rejectUnknown(_ allowed: [String], in object: JSONObject? = nil, prefix: String = "") {
        for key in (object ?? body).keys where !allowed.contains(key) { report(prefix + key, .unknownField) }
    }

    package var result: WriteRejection? { problems.isEmpty ? nil : .invalid(problems) }
}
