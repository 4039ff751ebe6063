/// An error of the service's core, independent of HTTP; `API/` maps each kind to a status.
package struct ListServiceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in terms a status can be chosen from.
    package enum Kind: Sendable, Equatable {
        case invalidParameter
        case notFound
        /// No representation the request's `Accept` takes (406).
        case notAcceptable
    }

    package let kind: Kind
    /// Stable, machine-readable code (API: tests pin it).
    package let code: String
    package let detail: String
    /// The query parameter or header at fault.
    package let parameter: String?
    /// The values the parameter accepts, when they are a closed set.
    package let allowedValues: [String]?
    /// Every parameter at fault, when the fault is how two of them go together (`group`, `sort`).
    package var parameters: [String]? = nil

    package var description: String { detail }

    package static func invalidParameter(_ name: String, _ detail: String, allowed: [String]? = nil) -> ListServiceError {
        ListServiceError(kind: .invalidParameter, code: "invalid-parameter", detail: detail, parameter: name, allowedValues: allowed)
    }

    package static func unknownParameter(_ name: String, allowed: [String]) -> ListServiceError {
        ListServiceError(
            kind: .invalidParameter, code: "unknown-parameter",
            detail: "Unknown query parameter '\(name)'; this endpoint takes \(allowed.joined(separator: ", ")).",
            parameter: name, allowedValues: allowed)
    }

    /// Two parameters that do not go together (`group=day` with `sort=total`); names both.
    package static func conflictingParameters(_ first: String, _ second: String, _ detail: String) -> ListServiceError {
        ListServiceError(
            kind: .invalidParameter, code: "invalid-parameter", detail: detail, parameter: first, allowedValues: nil,
            parameters: [first, second])
    }

    /// `Accept` takes none of the media types an export is `offered` in; the parameter `choice` picks one in the URL.
    package static func notAcceptable(offered: [String], choice: String) -> ListServiceError {
        ListServiceError(
            kind: .notAcceptable, code: "not-acceptable",
            detail: "An export is written as \(offered.joined(separator: " or ")), and Accept takes neither; "
                + "accept one, or choose it with '\(choice)'.",
            parameter: "Accept", allowedValues: offered)
    }

    /// `around` named an item the list does not hold (or the caller may not see).
    package static func notInList(_ what: String, id: String) -> ListServiceError {
        ListServiceError(
            kind: .notFound, code: "not-in-list", detail: "No \(what) with id '\(id)' is in this list.", parameter: "around",
            allowedValues: nil)
    }

    package static func notFound(_ what: String, id: String) -> ListServiceError {
        ListServiceError(kind: .notFound, code: "not-found", detail: "No \(what) with id '\(id)'.", parameter: nil, allowedValues: nil)
    }
}
