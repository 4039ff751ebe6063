import Basics

/// An error that carries its HTTP status and RFC 9457 problem details.
///
/// Handlers throw it to answer with `application/problem+json`; any other thrown error
/// becomes a generic 500.
public struct HTTPError: Error, Sendable {
    public var status: HTTPStatus
    /// A stable, machine-readable code clients may switch on (`invalid-parameter`).
    public var code: String
    public var detail: String
    /// Extra problem members, already encoded as JSON values (name → JSON text).
    public var extensions: [(name: String, json: String)]
    /// Headers to send with the problem (`Allow` on a 405).
    public var headers: HTTPHeaders

    /// `parameter`, when given, names what is wrong (a query parameter, a header, a path
    /// parameter): the problem's `parameter` member, ahead of `extensions`.
    public init(
        _ status: HTTPStatus, code: String, detail: String, parameter: String? = nil,
        extensions: [(name: String, json: String)] = [], headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.extensions = (parameter.map { [("parameter", JSONString.quoted($0))] } ?? []) + extensions
        self.headers = headers
    }

    /// The problem as a complete response; never stored by caches unless `headers` say otherwise.
    public var response: Response {
        var headers = self.headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/problem+json")
        if headers["Cache-Control"] == nil { headers.add(name: "Cache-Control", value: "no-store") }
        return Response(status: status, headers: headers, body: .bytes(ProblemJSON.encode(self)))
    }
}
