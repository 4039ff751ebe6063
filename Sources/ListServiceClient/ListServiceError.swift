import Foundation

/// A refusal or a failure, with the problem details (RFC 9457) the service sent where it
/// sent them: `status`, the stable `code`, `detail`, and for a rejected body every field's
/// error. A failure to reach the service at all has `status` 0 and code `unreachable`.
public struct ListServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One field a write's body got wrong.
    public struct FieldError: Sendable, Equatable, Decodable {
        public var field: String
        public var detail: String
    }

    public var status: Int
    public var code: String
    public var title: String
    public var detail: String
    /// The query parameter at fault (`invalid-parameter`, `unknown-parameter`).
    public var parameter: String?
    /// The values the parameter allows, when they are a closed set.
    public var allowed: [String]?
    /// A rejected body's errors (`validation-failed`).
    public var errors: [FieldError]
    /// How long the service asked to be left alone (`Retry-After` of a 503 or 429), in seconds.
    public var retryAfter: TimeInterval?

    public var description: String { "\(status) \(code): \(detail)" }

    init(
        status: Int, code: String, title: String, detail: String, parameter: String? = nil, allowed: [String]? = nil,
        errors: [FieldError] = [], retryAfter: TimeInterval? = nil
    ) {
        (self.status, self.code, self.title, self.detail) = (status, code, title, detail)
        (self.parameter, self.allowed, self.errors, self.retryAfter) = (parameter, allowed, errors, retryAfter)
    }

    /// The problem in `body` of an answer with `status`; a body that is not a problem keeps
    /// the status with a generic code.
    init(status: Int, body: Data, retryAfter: TimeInterval?) {
        let problem = try? JSONDecoder().decode(ProblemDocument.self, from: body)
        self.init(status: status, problem: problem ?? ProblemDocument(), retryAfter: retryAfter)
    }

    /// The error `problem` describes, in an answer (or a bulk action's outcome) with `status`.
    init(status: Int, problem: ProblemDocument, retryAfter: TimeInterval?) {
        self.init(
            status: status, code: problem.code ?? "http-\(status)", title: problem.title ?? "HTTP \(status)",
            detail: problem.detail ?? "The service answered \(status).", parameter: problem.parameter, allowed: problem.allowed,
            errors: problem.errors ?? [], retryAfter: retryAfter)
    }

    static func unreachable(_ error: any Error) -> ListServiceError {
        ListServiceError(status: 0, code: "unreachable", title: "Unreachable", detail: "\(error)")
    }

    static func undecodable(_ error: any Error, path: String) -> ListServiceError {
        ListServiceError(status: 0, code: "undecodable", title: "Unexpected answer", detail: "\(path): \(error)")
    }

    /// The members of a problem document (RFC 9457) the client reads.
    struct ProblemDocument: Decodable {
        var code: String?
        var title: String?
        var detail: String?
        var parameter: String?
        var allowed: [String]?
        var errors: [FieldError]?
    }

    /// Worth trying again later: the service could not be reached, was busy or shutting down.
    var isTransient: Bool { code == "unreachable" || status == 408 || status == 429 || status >= 500 }
}
